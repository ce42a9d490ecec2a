#!/usr/bin/env python3
"""modkit benchmark: the same work done by modkit and by plain git driven by xargs -P, interleaved,
on one fixture of N module repositories served as local bare remotes. Standard library only."""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import fixture  # noqa: E402
import peers  # noqa: E402


def run(command, cwd, env, check=True):
    result = subprocess.run(command, cwd=cwd, env=env, shell=isinstance(command, str),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if check and result.returncode not in (0,):
        raise RuntimeError(f"{command} failed ({result.returncode}) in {cwd}: {result.stderr[-2000:]}")
    return result.returncode


def timed(command, cwd, env, check=True):
    start = time.perf_counter()
    run(command, cwd, env, check)
    return time.perf_counter() - start


class Tool:
    """One way of doing the five operations on its own copy of the workspace."""

    def __init__(self, name, workspace):
        self.name = name
        self.workspace = workspace


class ModkitTool(Tool):
    def __init__(self, binary, workspace, jobs):
        super().__init__("modkit", workspace)
        self.binary = binary
        self.jobs = jobs

    def cmd(self, *args):
        return [self.binary, "-q", "-j", str(self.jobs), *args]

    def fresh(self, env):
        shutil.rmtree(os.path.join(self.workspace, "Libs"), ignore_errors=True)
        return timed(self.cmd("sync"), self.workspace, env)

    def sync(self, env):
        return timed(self.cmd("sync"), self.workspace, env)

    def status(self, env):
        return timed(self.cmd("status"), self.workspace, env)

    def forall(self, env):
        return timed(self.cmd("forall", "-c", "git rev-parse HEAD"), self.workspace, env)


class GitTool(Tool):
    """Plain git, one process per repository, xargs -P<cores> wide."""

    def __init__(self, workspace, modules, remotes, parallel):
        super().__init__(f"git xargs -P{parallel}", workspace)
        self.modules = modules
        self.remotes = remotes
        self.parallel = parallel

    def xargs(self, script, env):
        lines = "\n".join(self.modules) + "\n"
        start = time.perf_counter()
        subprocess.run(["xargs", f"-P{self.parallel}", "-I{}", "sh", "-c", script], input=lines, text=True,
                       cwd=self.workspace, env=env, check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - start

    def fresh(self, env):
        shutil.rmtree(os.path.join(self.workspace, "Libs"), ignore_errors=True)
        return self.xargs(f"git clone -q -b main file://{self.remotes}/{{}}.git Libs/{{}}", env)

    def sync(self, env):
        return self.xargs("git -C Libs/{} fetch -q origin && git -C Libs/{} merge -q --ff-only @{u}", env)

    def status(self, env):
        return self.xargs("git -C Libs/{} status --porcelain=v2 --branch >/dev/null", env)

    def forall(self, env):
        return self.xargs("cd Libs/{} && git rev-parse HEAD", env)


OPERATIONS = [
    ("fresh sync", "fresh", None),
    ("no-op sync", "sync", None),
    ("update sync", "sync", "push"),
    ("status", "status", None),
    ("forall rev-parse", "forall", None),
]


def measure(tools, runs, fx, env):
    results = {}
    for label, method, prepare in OPERATIONS:
        samples = {tool.name: [] for tool in tools}
        for index in range(runs):
            if prepare == "push":
                fx.push_commit_everywhere(index)
            # Interleave the tools, rotating who goes first, so drift on the machine hits all alike.
            order = tools[index % len(tools):] + tools[:index % len(tools)]
            for tool in order:
                samples[tool.name].append(getattr(tool, method)(env))
        results[label] = {name: statistics.median(values) for name, values in samples.items()}
        line = "  ".join(f"{name} {value:.3f}s" for name, value in results[label].items())
        print(f"  measured {label}: {line}", file=sys.stderr, flush=True)
    return results


def print_table(results, tools, baseline):
    names = [tool.name for tool in tools]
    header = ["operation"] + [f"{name} (s)" for name in names] + [f"{name}/git" for name in names if name != baseline]
    rows = []
    for label, _, _ in OPERATIONS:
        values = results[label]
        row = [label] + [f"{values[name]:.3f}" for name in names]
        row += [f"{values[name] / values[baseline]:.2f}x" for name in names if name != baseline]
        rows.append(row)
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    print("| " + " | ".join(cell.ljust(width) for cell, width in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    for row in rows:
        print("| " + " | ".join(cell.ljust(width) for cell, width in zip(row, widths)) + " |")


def bench_pin(binary, root, env, runs):
    workspace = fixture.make_spec_workspace(os.path.join(root, "pins"), modules=250)
    files = sum(len(files) for _, _, files in os.walk(workspace) if True) - 1
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        code = run([binary, "pin", "--check"], workspace, env, check=False)
        samples.append(time.perf_counter() - start)
        if code != 1:
            raise RuntimeError(f"pin --check should find loose requirements (exit 1), got {code}")
    print(f"\npin --check over {files} spec files (250 modules): median {statistics.median(samples):.3f}s "
          f"(min {min(samples):.3f}s, {runs} runs)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("count", nargs="?", type=int, default=100)
    parser.add_argument("--modkit", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--peers", action="store_true")
    parser.add_argument("--jobs", type=int, help="modkit -j (default: modkit's own default for network work)")
    parser.add_argument("--keep", action="store_true", help="keep the fixture directory")
    options = parser.parse_args()

    root = tempfile.mkdtemp(prefix="modkit-bench-")
    env = fixture.isolated_env(root)
    cores = os.cpu_count() or 1
    try:
        print(f"fixture: {options.count} repositories under {root} ({cores} cores, {options.runs} runs each)",
              file=sys.stderr, flush=True)
        fx = fixture.Fixture(root, options.count, env)
        fx.build()
        jobs = options.jobs or max(4, cores)
        tools = [
            ModkitTool(options.modkit, fx.workspace("modkit", options.count), jobs),
            GitTool(fx.plain_workspace("git"), fx.names, fx.remotes, cores),
        ]
        if options.peers:
            tools += peers.make_peers(fx, root, env)
        results = measure(tools, options.runs, fx, env)
        print(f"\n{options.count} repositories, median of {options.runs} runs, {cores} cores, "
              f"modkit -j {jobs}; git driven by xargs -P{cores}\n")
        print_table(results, tools, tools[1].name)
        bench_pin(options.modkit, root, env, options.runs)
    finally:
        if options.keep:
            print(f"kept {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
