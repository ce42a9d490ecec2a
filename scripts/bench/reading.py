#!/usr/bin/env python3
"""Times modkit reading big one-line (flow-style) files: a 2,000-module modkit.yml (`list`), a 2,000-module snapshot
(`snapshots`), 2,000-project west.yml and .repos files, and a repo manifest of 1,000 projects with 800
`remove-project` (`init --import`). Prints the median of R runs each.
Standard library only."""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd, cwd, check=True):
    result = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and result.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {result.returncode}: {result.stderr}")
    return result


def git(cwd, *args):
    run(["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", *args], cwd)


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_seconds(cmd, cwd, runs, before=None):
    """Median wall-clock and CPU seconds (CPU time hardly moves with the machine's load)."""
    wall, cpu = [], []
    for _ in range(runs):
        if before:
            before()
        start, start_cpu = time.perf_counter(), children_cpu()
        run(cmd, cwd)
        wall.append(time.perf_counter() - start)
        cpu.append(children_cpu() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--modkit", required=True)
    parser.add_argument("--modules", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    n, modkit = args.modules, os.path.abspath(args.modkit)
    root = tempfile.mkdtemp(prefix="modkit-bench-reading-")
    try:
        rows = []

        manifest = os.path.join(root, "manifest")
        os.makedirs(manifest)
        with open(os.path.join(manifest, "modkit.yml"), "w") as f:
            f.write("version: 1\nmodules: [" + ", ".join(f"{{name: M{i}, path: Libs/M{i}}}" for i in range(n)) + "]\n")
        rows.append((f"list: {n}-module flow-style modkit.yml", median_seconds([modkit, "list", "--json"], manifest, args.runs)))

        snapshot = os.path.join(root, "snapshot")
        os.makedirs(os.path.join(snapshot, "Libs/Core"))
        with open(os.path.join(snapshot, "modkit.yml"), "w") as f:
            f.write("version: 1\nmodules:\n  - name: Core\n    path: Libs/Core\n")
        with open(os.path.join(snapshot, "Libs/Core/VERSION"), "w") as f:
            f.write("1.0.0\n")
        git(snapshot, "init", "-q", "-b", "main")
        git(snapshot, "add", "-A")
        git(snapshot, "commit", "-qm", "Product")
        os.makedirs(os.path.join(snapshot, ".modkit/snapshots"))
        with open(os.path.join(snapshot, ".modkit/snapshots/v9.yml"), "w") as f:
            modules = ", ".join(f"M{i}: {{path: Libs/M{i}, version: 1.0.{i}}}" for i in range(n))
            f.write(f'snapshot: v9\ncreated: "2026-11-30T12:00:00Z"\nmodules: {{{modules}}}\n')
        git(snapshot, "add", "-A")
        git(snapshot, "commit", "-qm", "Snapshot v9")
        git(snapshot, "tag", "v9")
        rows.append((f"snapshots: {n}-module one-line snapshot", median_seconds([modkit, "snapshots", "--json"], snapshot, args.runs)))

        inputs = {
            "west.yml": "manifest:\n  projects: [" + ", ".join(f"{{name: p{i}, url: 'file:///srv/p{i}', path: libs/p{i}}}" for i in range(n)) + "]\n",
            "deps.repos": "repositories: {" + ", ".join(f"libs/r{i}: {{type: git, url: 'file:///srv/r{i}', version: main}}" for i in range(n)) + "}\n",
        }
        for name, text in inputs.items():
            workspace = os.path.join(root, name.replace(".", "-"))
            os.makedirs(workspace)
            with open(os.path.join(workspace, name), "w") as f:
                f.write(text)
            fresh = lambda: os.path.exists(os.path.join(workspace, "modkit.yml")) and os.remove(os.path.join(workspace, "modkit.yml"))
            rows.append((f"init --import: {n}-project one-line {name}",
                         median_seconds([modkit, "-q", "init", "--import", name], workspace, args.runs, before=fresh)))

        removals = os.path.join(root, "repo-removals")
        os.makedirs(removals)
        remote = '<remote name="origin" fetch="file:///srv"/>\n<default remote="origin" revision="main"/>\n'
        with open(os.path.join(removals, "default.xml"), "w") as f:
            f.write("<manifest>\n" + remote + "".join(
                f'  <project name="platform/group{i % 37}/project{i}" path="tree/{i % 37}/p{i}"/>\n' for i in range(1000))
                + '  <include name="local.xml"/>\n</manifest>\n')
        with open(os.path.join(removals, "local.xml"), "w") as f:
            f.write("<manifest>\n" + "".join(
                f'  <remove-project name="platform/group{i % 37}/project{i}"/>\n' for i in range(1000) if i % 5 != 0)
                + "</manifest>\n")
        fresh_removals = lambda: os.path.exists(os.path.join(removals, "modkit.yml")) and os.remove(os.path.join(removals, "modkit.yml"))
        rows.append(("init --import: repo manifest, 1,000 projects, 800 remove-project",
                     median_seconds([modkit, "-q", "init", "--import", "default.xml"], removals, args.runs, before=fresh_removals)))

        width = max(len(label) for label, _ in rows)
        print(f"reading big one-line files, median of {args.runs} runs ({modkit})")
        for label, (wall, cpu) in rows:
            print(f"  {label.ljust(width)}  {wall:6.3f} s  (CPU {cpu:6.3f} s)")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
