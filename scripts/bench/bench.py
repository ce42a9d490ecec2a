#!/usr/bin/env python3
"""modkit benchmark: the same work done by modkit and by plain git driven by xargs -P, interleaved,
on one fixture of N module repositories served as local bare remotes. Standard library only."""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import fixture  # noqa: E402
import peers  # noqa: E402
import timing  # noqa: E402
from timing import Tool, remove_clones, run, timed  # noqa: E402


class ModkitTool(Tool):
    """modkit; `variant` (NAME=VALUE) runs it with that environment setting, to measure one choice against another."""

    def __init__(self, binary, workspace, jobs, variant=None):
        super().__init__(("modkit" if not jobs else f"modkit -j{jobs}") + (f" {variant}" if variant else ""), workspace)
        self.binary = binary
        self.jobs = jobs
        self.variant_env = dict([variant.split("=", 1)]) if variant else {}

    def cmd(self, *args):
        jobs = ["-j", str(self.jobs)] if self.jobs else []
        return [self.binary, "-q", *jobs, *args]

    def fresh(self, env):
        remove_clones(self.workspace)
        return timed(self.cmd("sync"), self.workspace, {**env, **self.variant_env})

    def sync(self, env):
        return timed(self.cmd("sync"), self.workspace, {**env, **self.variant_env})

    def status(self, env):
        return timed(self.cmd("status"), self.workspace, env)

    def forall(self, env):
        return timed(self.cmd("forall", "-c", "git rev-parse HEAD"), self.workspace, env)

    def forall_true(self, env):
        return timed(self.cmd("forall", "-c", "true"), self.workspace, env)

    def list(self, env):
        return timed(self.cmd("list"), self.workspace, env)

    def affected(self, env):
        return timed(self.cmd("affected", "--since", "origin/main"), self.workspace, env)


class GitTool(Tool):
    """Plain git, one process per repository, xargs -P<cores> wide; each repository is cloned at Libs/<name>, with any
    "/" of the name as "__" (a repository name may lie inside another's)."""

    def __init__(self, workspace, modules, url_base, parallel):
        """`modules`: repository names, or (repository, module) pairs where one repository has several clones."""
        super().__init__(f"git xargs -P{parallel}", workspace)
        self.modules = [(module, module) if isinstance(module, str) else module for module in modules]
        self.url_base = url_base
        self.parallel = parallel

    @staticmethod
    def checkout(name):
        return "Libs/" + name.replace("/", "__")

    def xargs(self, script, env):
        """Runs `script` (sh) once per repository, with its name in $1 and its clone in $2."""
        lines = "".join(f"{repository} {self.checkout(module)}\n" for repository, module in self.modules)
        return timed(["xargs", f"-P{self.parallel}", "-L1", "sh", "-c", script, "sh"], self.workspace, env, input=lines)

    def fresh(self, env):
        remove_clones(self.workspace)
        return self.xargs(f'git clone -q -b main {self.url_base}/"$1".git "$2"', env)

    def sync(self, env):
        return self.xargs('git -C "$2" fetch -q origin && git -C "$2" merge -q --ff-only @{u}', env)

    def status(self, env):
        return self.xargs('git -C "$2" status --porcelain=v2 --branch >/dev/null', env)

    def forall(self, env):
        return self.xargs('cd "$2" && git rev-parse HEAD', env)

    def forall_true(self, env):
        return self.xargs('cd "$2" && true', env)

    def affected(self, env):
        # what `modkit affected --since origin/main` asks of each repository: commits since the merge base, and
        # whether tracked files changed
        return self.xargs('cd "$2" && git rev-list --count $(git merge-base HEAD origin/main)..HEAD >/dev/null && '
                          "git status --porcelain --untracked-files=no >/dev/null", env)


OPERATIONS = [
    ("fresh sync", "fresh", None),
    ("no-op sync", "sync", None),
    ("update sync", "sync", "push"),
    ("status", "status", None),
    ("forall rev-parse", "forall", None),
]


# `scripts/bench.sh --scale`: what must stay linear in the number of repositories (scale.py).
SCALE_OPERATIONS = [
    ("status", "status", None),
    ("no-op sync", "sync", None),
    ("forall -c true", "forall_true", None),
    ("list", "list", None),
    ("affected", "affected", None),
]


SHORT = {"fresh sync": "fresh", "no-op sync": "noop", "update sync": "update", "status": "status",
         "forall rev-parse": "forall", "forall -c true": "true", "list": "list", "affected": "affected"}


def attempt(tool, method, env):
    """One sample: seconds, None when the tool has no such operation, or the failure as text."""
    if method in tool.missing or not hasattr(tool, method):
        return None
    try:
        return getattr(tool, method)(env)
    except (RuntimeError, OSError, subprocess.SubprocessError) as error:
        if isinstance(tool, (ModkitTool, GitTool)):
            raise
        return f"failed: {str(error).strip().splitlines()[-1][:200] if str(error).strip() else error}"


# Per operation and tool, the share of the machine's cores busy in each timed run of the last `measure`
# (`timing.last_busy_share`).
MACHINE_BUSY = {}


def measure(tools, runs, fx, env, only=None, peaks=None, around=None, operations=OPERATIONS):
    """Per operation and tool, every sample; tools interleaved within each run. `peaks` (a dict) gets the
    peak resident KiB per operation and tool; `around(label, "before"|"after")` runs around each operation."""
    samples = {}
    MACHINE_BUSY.clear()  # this call's runs only (a table per transport)
    for label, method, prepare in operations:
        if around:
            around(label, "before")
        if only and SHORT[label] not in only:
            if method == "fresh":  # the later operations need the clones
                for tool in tools:
                    attempt(tool, method, env)
            samples[label] = {tool.name: [None] for tool in tools}
            continue
        samples[label] = {tool.name: [] for tool in tools}
        for index in range(runs):
            if prepare == "push":
                fx.push_commit_everywhere(index, getattr(fx, "changed", None))
            # Interleave the tools, rotating who goes first, so drift on the machine hits all alike.
            order = tools[index % len(tools):] + tools[:index % len(tools)]
            for tool in order:
                timing.last_peak_kb = 0
                timing.last_busy_share = None
                samples[label][tool.name].append(attempt(tool, method, env))
                if timing.last_busy_share is not None:
                    MACHINE_BUSY.setdefault(label, {}).setdefault(tool.name, []).append(timing.last_busy_share)
                if peaks is not None:
                    peaks.setdefault(label, {})[tool.name] = max(peaks.get(label, {}).get(tool.name, 0),
                                                                 timing.last_peak_kb)
        if method == "fresh":
            timing.sweep_set_aside(fx.root)
        if around:
            around(label, "after")
        line = "  ".join(f"{name} {summary(values)}" for name, values in samples[label].items())
        print(f"  measured {label}: {line}", file=sys.stderr, flush=True)
    return samples


def median(values):
    """The median of the timed samples, or None when the operation is n/a or failed in any run."""
    if not values or any(not isinstance(value, float) for value in values):
        return None
    return statistics.median(values)


def summary(values):
    value = median(values)
    if value is None:
        return next((v for v in values if isinstance(v, str)), "n/a")
    return f"{value:.3f}s [{min(values):.3f}-{max(values):.3f}]"


def print_table(samples, tools, baseline):
    """Operations as rows; per tool the median seconds and its ratio to plain git. `baseline` names one tool, or is a
    list of them (git at several -P): then each row's ratios are to the fastest of those, marked `*`."""
    floors = baseline if isinstance(baseline, list) else [baseline]
    header = ["operation"] + [tool.name for tool in tools]
    rows = []
    for label, _, _ in OPERATIONS:
        medians = [(median(samples[label][name]), name) for name in floors]
        medians = [(value, name) for value, name in medians if value is not None]
        base, best = min(medians) if medians else (None, None)
        row = [label]
        for tool in tools:
            value = median(samples[label][tool.name])
            if value is None:
                row.append("failed" if any(isinstance(v, str) for v in samples[label][tool.name]) else "n/a")
            elif tool.name == best:
                row.append(f"{value:.3f}s" + ("*" if len(floors) > 1 else ""))
            else:
                row.append(f"{value:.3f}s {value / base:.2f}x")
        rows.append(row)
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    print("| " + " | ".join(cell.ljust(width) for cell, width in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    for row in rows:
        print("| " + " | ".join(cell.ljust(width) for cell, width in zip(row, widths)) + " |")
    floor = "the fastest of " + ", ".join(floors) + " (*)" if len(floors) > 1 else floors[0]
    print(f"\nratios are tool/{floor} of medians; spread (max/min over runs) per tool, and how busy the machine's cores"
          " were meanwhile, with the CPU seconds spent (medians; the servers and the proxy share the cores, and near 100%"
          " a time is bound by this machine's CPU):")
    for tool in tools:
        spreads = []
        for label, method, _ in OPERATIONS:
            values = samples[label][tool.name]
            if median(values) is not None:
                busy = MACHINE_BUSY.get(label, {}).get(tool.name)
                cores = os.cpu_count() or 1
                spreads.append(f"{label} {max(values) / min(values):.2f}"
                               + (f" (cores {100 * statistics.median(busy):.0f}% busy,"
                                  f" {statistics.median(share * value * cores for share, value in zip(busy, values)):.2f} CPU s)"
                                  if busy and len(busy) == len(values) else ""))
            elif method in tool.missing:
                spreads.append(f"{label} n/a ({tool.missing[method]})")
            else:
                spreads.append(f"{label} {next((v for v in values if isinstance(v, str)), 'not measured')}")
        print(f"  {tool.name}: " + ", ".join(spreads))


def verify(tools, fx, env, fsck=False, rows=None):
    """After the runs every tool's clones of `rows` (default fx.rows) must be at the remotes' newest commit (and, with
    `fsck`, pass `git fsck`); says where not, and returns how many are wrong."""
    rows = rows or fx.rows
    expected = {}
    wrong_total = 0
    for repository in dict.fromkeys(repository for _, repository, _ in rows):
        result = subprocess.run(["git", "rev-parse", "main"], cwd=os.path.join(fx.remotes, f"{repository}.git"), env=env,
                                stdout=subprocess.PIPE, text=True, check=True)
        expected[repository] = result.stdout.strip()
    for tool in tools:
        wrong = []
        for module, repository, checkout in rows:
            clone = os.path.join(tool.workspace, checkout if isinstance(tool, ModkitTool) else GitTool.checkout(module))
            if not os.path.isdir(clone):
                wrong.append(module + " (missing)")
                continue
            result = subprocess.run(["git", "rev-parse", "HEAD"], cwd=clone,
                                    env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            if result.stdout.strip() != expected[repository]:
                wrong.append(module)
            elif fsck and subprocess.run(["git", "fsck", "--no-progress"], cwd=clone,
                                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
                wrong.append(module + " (git fsck)")
        if wrong:
            print(f"  warning: {tool.name} left {len(wrong)} of {len(rows)} clones off the remote's "
                  f"newest commit (e.g. {wrong[0]})", file=sys.stderr)
        wrong_total += len(wrong)
    return wrong_total


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
    # SIGTERM unwinds like an exception, so servers are stopped and the fixture removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser()
    parser.add_argument("count", nargs="?", type=int, default=100)
    parser.add_argument("--modkit", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--peers", action="store_true")
    parser.add_argument("--jobs", help="modkit -j; a comma list (e.g. 4,8,16) measures one modkit per value, 0 for "
                        "modkit's own default (default: modkit's own defaults)")
    parser.add_argument("--variants", help="comma list of NAME=VALUE: one more modkit per setting, run with it in "
                        "its environment (e.g. MODKIT_REMOTE_CHECK=0)")
    parser.add_argument("--only", help="comma list of operations to measure (fresh,noop,update,status,forall; "
                        "--scale: status,noop,true,list,affected)")
    parser.add_argument("--keep", action="store_true", help="keep the fixture directory")
    parser.add_argument("--scale", help="comma list of N (e.g. 100,500,1500): status, no-op sync, forall -c true, "
                        "list and affected at each N, with peak memory, descriptors and threads (scale.py)")
    parser.add_argument("--against", help="--scale: another modkit binary measured interleaved with --modkit (an A/B)")
    parser.add_argument("--layout", choices=sorted(fixture.LAYOUTS), help="--scale: the names and paths of a real "
                        "manifest's projects instead of Mod001… under Libs/ (lineage: LineageOS 21.0, 1,431 projects)")
    parser.add_argument("--heavy", action="store_true", help="the heavy fixture (heavy.py) instead of N tiny repositories")
    parser.add_argument("--heavy-size", type=float, default=100, help="MB of pack of the heavy fixture's largest repository")
    parser.add_argument("--transport", help="file, git, http, a comma list, or all (heavy: default git; tiny: file, "
                        "with --rtt git,http)")
    parser.add_argument("--rtt", type=float, help="serve through latency_proxy.py with this round trip (ms) and "
                        "connection set-up cost")
    parser.add_argument("--bandwidth", type=float, default=100, help="with --rtt: Mbit/s cap (default 100, 0: none)")
    parser.add_argument("--changed", type=int, help="update sync: a new commit in this many repositories "
                        "(default all; 10%% with --rtt)")
    parser.add_argument("--git-jobs", help="xargs -P for plain git, a comma list (default: cores; with --rtt 4,8,16; "
                        "ratios are to the fastest)")
    options = parser.parse_args()
    options.modkit = os.path.abspath(options.modkit)
    if options.rtt is not None and options.changed is None:
        options.changed = max(1, options.count // 10)

    root = tempfile.mkdtemp(prefix="modkit-bench-")
    if options.scale or options.heavy:
        # The scale and heavy modes default to 3 runs and clean up their fixture the same way.
        if "--runs" not in sys.argv:
            options.runs = 3
        try:
            if options.scale:
                import scale
                scale.run_scale(options, root)
            else:
                import heavy_bench
                options.root = root
                heavy_bench.main(options)
        finally:
            if options.keep:
                print(f"kept {root}", file=sys.stderr)
            else:
                shutil.rmtree(root, ignore_errors=True)
        return
    env = fixture.isolated_env(root)
    cores = os.cpu_count() or 1
    shaping = {"rtt": options.rtt, "bandwidth": options.bandwidth} if options.rtt is not None else None
    transports = (options.transport or ("git,http" if shaping else "file")).split(",")
    import servers
    for transport in transports:
        if transport not in servers.TRANSPORTS or (shaping and transport == "file"):
            raise SystemExit(f"unknown transport {transport!r}: use file, git, http or ssh (--rtt: git, http or ssh)")
    git_jobs = [int(value) for value in options.git_jobs.split(",")] if options.git_jobs else \
        ([4, 8, 16] if shaping else [cores])
    try:
        print(f"fixture: {options.count} repositories under {root} ({cores} cores, {options.runs} runs each)",
              file=sys.stderr, flush=True)
        fx = fixture.Fixture(root, options.count, env)
        fx.build()
        fx.changed = options.changed
        for transport in transports:
            with servers.TRANSPORTS[transport](fx.remotes, env, shaping) as server:
                fx.url_base = server.url_base
                fx.root = os.path.join(root, transport)
                os.makedirs(fx.root, exist_ok=True)
                jobs = [int(value) for value in options.jobs.split(",")] if options.jobs else [None]
                modkits = [ModkitTool(options.modkit, fx.workspace(f"modkit{j or ''}", options.count), j) for j in jobs]
                for index, variant in enumerate(options.variants.split(",") if options.variants else []):
                    modkits.append(ModkitTool(options.modkit, fx.workspace(f"modkit-v{index}", options.count), jobs[0],
                                              variant))
                gits = [GitTool(fx.plain_workspace(f"git{p}"), fx.names, fx.url_base, p) for p in git_jobs]
                tools = modkits + gits
                if options.peers:
                    tools += peers.make_peers(fx, fx.root, env)
                samples = measure(tools, options.runs, fx, env, options.only.split(",") if options.only else None)
                verify(tools, fx, env, fsck=shaping is not None)
                changed = f", update sync: one new commit in {options.changed} of them" if options.changed else ""
                print(f"\n## {options.count} repositories over {transport} ({servers.describe(shaping)}){changed}; "
                      f"median of {options.runs} runs, {cores} cores, modkit "
                      f"{'-j ' + options.jobs if options.jobs and options.jobs != '0' else 'with its default -j'}; git driven by xargs -P"
                      f"{'|'.join(map(str, git_jobs))}\n")
                print_table(samples, tools, [git.name for git in gits])
                sys.stdout.flush()
        bench_pin(options.modkit, root, env, options.runs)
    finally:
        if options.keep:
            print(f"kept {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
