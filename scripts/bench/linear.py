#!/usr/bin/env python3
"""Checks that reading grows linearly: times modkit on each spec format, lock file and import format at n and 4n
requirements (most of them on one line) and prints the ratio (linear is about 4x; the target is at most 5x), then
times the inputs of issues 35 and 37 (bad manifests of 50,000 entries, a Package.swift ending in an unterminated
string and 300,000 blanks, a repo project of 10,000 unknown attributes…) and prints how much each wrote on stderr.
`--save DIR --size N` writes every input at N requirements into DIR instead (fuzz seeds, debugging).
Standard library only."""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import resource
import time


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(text)


def module_workspace(root, files):
    """A workspace of one directory module `App` holding `files` (name → text)."""
    write(os.path.join(root, "modkit.yml"), "version: 1\nmodules:\n  - name: App\n    path: App\n    version: 1.0.0\n")
    for name, text in files.items():
        write(os.path.join(root, "App", name), text)
    return ["pin", "--check"]


def import_workspace(root, name, text):
    write(os.path.join(root, name), text)
    return ["-q", "init", "--import", name]


def podfile_lock(n):
    return ("PODS:\n" + "".join(f"  - Dep{i} (1.0.{i})\n" for i in range(n)) + "\nDEPENDENCIES:\n"
            + "".join(f"  - Dep{i}\n" for i in range(n)) + "\nCOCOAPODS: 1.15.2\n")


def package_resolved(n):
    pins = [{"identity": f"dep{i}", "kind": "remoteSourceControl", "location": f"https://example.com/org/Dep{i}.git",
             "state": {"revision": f"{i:040x}", "version": f"1.0.{i}"}} for i in range(n)]
    return json.dumps({"pins": pins, "version": 2}, indent=2) + "\n"


def cartfile_resolved(n):
    return "".join(f'github "org/Dep{i}" "1.0.{i}"\n' for i in range(n))


# Each input class: (label, what n counts, function(root, n) → modkit arguments run in root).
SCALING = [
    ("podspec, one line", "s.dependency", lambda root, n: module_workspace(root, {
        "App.podspec": "Pod::Spec.new do |s| s.name = 'App'; s.version = '1.0.0'; "
                       + "; ".join(f"s.dependency 'Dep{i}', '~> 1.0'" for i in range(n)) + "; end\n",
        "Podfile.lock": podfile_lock(n)})),
    ("Podfile, one line", "pod", lambda root, n: module_workspace(root, {
        "Podfile": "target 'App' do; " + "; ".join(f"pod 'Dep{i}', '~> 1.0'" for i in range(n)) + "; end\n",
        "Podfile.lock": podfile_lock(n)})),
    ("Package.swift, one line", ".package", lambda root, n: module_workspace(root, {
        "Package.swift": '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "App", dependencies: ['
                         + ", ".join(f'.package(url: "https://example.com/org/Dep{i}.git", from: "1.0.0")' for i in range(n)) + "])\n",
        "Package.resolved": package_resolved(n)})),
    ("podspec.json, one line", "dependency", lambda root, n: module_workspace(root, {
        "App.podspec.json": json.dumps({"name": "App", "version": "1.0.0",
                                        "dependencies": {f"Dep{i}": ["~> 1.0"] for i in range(n)}}) + "\n",
        "Podfile.lock": podfile_lock(n)})),
    ("Cartfile", "line", lambda root, n: module_workspace(root, {
        "Cartfile": "".join(f'github "org/Dep{i}" ~> 1.0\n' for i in range(n)),
        "Cartfile.resolved": cartfile_resolved(n)})),
    ("Podfile.lock", "pod", lambda root, n: module_workspace(root, {
        "Podfile": "pod 'Dep0', '~> 1.0'\n", "Podfile.lock": podfile_lock(n)})),
    ("Package.resolved", "pin", lambda root, n: module_workspace(root, {
        "Package.swift": 'let package = Package(name: "App", dependencies: [.package(url: "https://example.com/org/Dep0.git", from: "1.0.0")])\n',
        "Package.resolved": package_resolved(n)})),
    ("import west.yml, one line", "project", lambda root, n: import_workspace(root, "west.yml",
        "manifest:\n  projects: [" + ", ".join(f"{{name: p{i}, url: 'file:///srv/p{i}', path: libs/p{i}}}" for i in range(n)) + "]\n")),
    ("import .repos, one line", "repository", lambda root, n: import_workspace(root, "deps.repos",
        "repositories: {" + ", ".join(f"libs/r{i}: {{type: git, url: 'file:///srv/r{i}', version: main}}" for i in range(n)) + "}\n")),
    ("import repo XML, one line", "project", lambda root, n: import_workspace(root, "default.xml",
        '<manifest><remote name="o" fetch="file:///srv"/><default remote="o" revision="main"/>'
        + "".join(f'<project name="p{i}" path="libs/p{i}"/>' for i in range(n)) + "</manifest>\n")),
    ("import .gitmodules", "submodule", lambda root, n: import_workspace(root, ".gitmodules",
        "".join(f'[submodule "libs/s{i}"]\n\tpath = libs/s{i}\n\turl = file:///srv/s{i}\n' for i in range(n)))),
    ("modkit.yml, one line of modules", "module", lambda root, n: (
        write(os.path.join(root, "modkit.yml"), "version: 1\nmodules: [" + ", ".join(f"{{name: M{i}, path: Libs/M{i}}}" for i in range(n)) + "]\n"),
        ["list", "--json"])[1]),
    ("modkit.yml, one line of bad entries", "entry", lambda root, n: (
        write(os.path.join(root, "modkit.yml"), "version: 1\nmodules: [" + ", ".join("a" for _ in range(n)) + "]\n"), ["list"])[1]),
    ("repo project with unknown attributes", "attribute", lambda root, n: import_workspace(root, "default.xml",
        '<manifest><remote name="o" fetch="file:///srv"/><default remote="o" revision="main"/><project name="p" path="libs/p" '
        + " ".join(f'x{i}="v{i}"' for i in range(n)) + "/></manifest>\n")),
]

# The inputs the issues name, each to answer in under a second: (label, class label, n).
ISSUE_INPUTS = [
    ("podspec, 4,000 s.dependency on one line", "podspec, one line", 4000),
    ("Podfile, 4,000 pods on one line", "Podfile, one line", 4000),
    ("Package.swift, 2,600 .package on one line", "Package.swift, one line", 2600),
    ("podspec.json, 5,000 dependencies on one line", "podspec.json, one line", 5000),
    ("Cartfile of 16,000 lines", "Cartfile", 16000),
    ("modkit.yml, 5,000 bad flow entries", "modkit.yml, one line of bad entries", 5000),
    ("modkit.yml, 50,000 bad flow entries", "modkit.yml, one line of bad entries", 50000),
    ("repo project of 10,000 unknown attributes", "repo project with unknown attributes", 10000),
]


def extra_issue_inputs():
    """Issue inputs that are not a size of a class above."""
    return [
        ("west.yml, one line of 50,000 bad projects", lambda root: import_workspace(root, "west.yml",
            "manifest: {projects: [" + ", ".join("a" for _ in range(50000)) + "]}\n")),
        ("west.yml ending in an unterminated string and 300,000 blanks", lambda root: import_workspace(root, "west.yml",
            "manifest: {projects: [{name: a, url: 'file:///srv/a" + " " * 300000)),
        ("Package.swift ending in an unterminated string and 300,000 blanks", lambda root: module_workspace(root, {
            "Package.swift": 'let package = Package(name: "App", dependencies: [.package(url: "' + " " * 300000})),
    ]


# Seconds after which a run is stopped and shown as "inf" (the inputs of the issues once took minutes).
TIMEOUT = 60


def run(modkit, root, arguments):
    """Wall and CPU seconds of one run, its exit code and the size of its stderr."""
    start, start_cpu = time.perf_counter(), children_cpu()
    try:
        result = subprocess.run([modkit, "--no-color", *arguments], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return float("inf"), float("inf"), None, 0
    wall, cpu = time.perf_counter() - start, children_cpu() - start_cpu
    if result.returncode not in (0, 1, 2):
        sys.exit(f"modkit {' '.join(arguments)} in {root} exited {result.returncode}: {result.stderr[-2000:]!r}")
    return wall, cpu, result.returncode, len(result.stderr)


def measure(modkit, make, runs, scratch):
    """Median wall and CPU seconds of `runs` runs on a fresh copy of the input, its exit code and stderr size."""
    samples = []
    for _ in range(runs):
        root = tempfile.mkdtemp(dir=scratch)
        arguments = make(root)
        samples.append(run(modkit, root, arguments))
        shutil.rmtree(root, ignore_errors=True)
    return (statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples), samples[-1][2], samples[-1][3])


def save(directory, size):
    for label, _, make in SCALING:
        make(os.path.join(directory, label.replace(" ", "-").replace(",", "").replace(".", "")), size)
    for label, make in extra_issue_inputs():
        make(os.path.join(directory, label.replace(" ", "-").replace(",", "").replace(".", "")))


def main():
    global TIMEOUT
    parser = argparse.ArgumentParser()
    parser.add_argument("--modkit", help="the binary to time (required unless --save)")
    parser.add_argument("--n", type=int, default=2000, help="the smaller size (default 2000); the larger is 4n")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", help="comma-separated substrings of the labels to run")
    parser.add_argument("--save", help="write every input at --size into this directory and exit")
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--timeout", type=int, default=60, help="seconds before a run is stopped (default 60)")
    args = parser.parse_args()
    TIMEOUT = args.timeout
    if args.save:
        save(args.save, args.size)
        return
    if not args.modkit:
        parser.error("--modkit is required")
    modkit = os.path.abspath(args.modkit)
    wanted = lambda label: not args.only or any(part in label for part in args.only.split(","))
    scratch = tempfile.mkdtemp(prefix="modkit-bench-linear-")
    worst = 0.0
    try:
        n = args.n
        print(f"reading at n={n} and 4n={4 * n}: median of {args.runs} runs, CPU seconds ({modkit})")
        width = max(len(label) for label, _, _ in SCALING)
        for label, unit, make in SCALING:
            if not wanted(label):
                continue
            small = measure(modkit, lambda root: make(root, n), args.runs, scratch)
            large = measure(modkit, lambda root: make(root, 4 * n), args.runs, scratch)
            ratio = large[1] / max(small[1], 1e-6)
            worst = max(worst, ratio)
            print(f"  {label.ljust(width)}  n {small[1]:7.3f} s  4n {large[1]:7.3f} s  ratio {ratio:5.2f}x"
                  f"  (exit {large[2]}, stderr {large[3]:,} bytes at 4n)")
        print(f"  worst ratio {worst:.2f}x (target at most 5x)")
        classes = {label: make for label, _, make in SCALING}
        inputs = [(label, (lambda make, size: lambda root: make(root, size))(classes[name], size)) for label, name, size in ISSUE_INPUTS]
        inputs += extra_issue_inputs()
        print("the issues' inputs (target under 1 s each): median wall seconds")
        width = max(len(label) for label, _ in inputs)
        for label, make in inputs:
            if not wanted(label):
                continue
            wall, cpu, code, errors = measure(modkit, make, args.runs, scratch)
            print(f"  {label.ljust(width)}  {wall:7.3f} s  (CPU {cpu:.3f} s, exit {code}, stderr {errors:,} bytes)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
