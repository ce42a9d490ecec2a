"""`scripts/bench.sh --heavy`: modkit (fetch.engine auto: git for these transports), modkit with libgit2,
with a warm object cache and with --depth 1, plain git (xargs -P) and the peers on the heavy fixture (see heavy.py), over file://, git:// (git daemon) and smart HTTP (git
http-backend), interleaved. Reports median seconds, ratios to git, peak memory, and for update sync the
bytes each tool's clones grew by and their `.git` size after the updates."""

import os
import shutil
import subprocess
import sys

import bench
import fixture
import heavy
import peers
import servers


class HeavyFixture(fixture.Fixture):
    """The cached heavy repositories, hard-link copied as this run's remotes."""

    def __init__(self, root, size_mb, env):
        super().__init__(root, 0, env)
        self.names = heavy.names()
        self.rows = [(name, name, f"Libs/{name}") for name in self.names]
        self.count = len(self.names)
        self.size_mb = size_mb

    def build(self):
        heavy.copy_remotes(heavy.cached_remotes(self.size_mb, self.env), self.remotes)

    def push_commit_everywhere(self, round_index, changed=None):
        for name in self.names:
            heavy.push_commit(os.path.join(self.remotes, f"{name}.git"), round_index, self.env)


class ModkitVariantTool(bench.ModkitTool):
    """`modkit sync` with a setting of its own: `MODKIT_FETCH_ENGINE=libgit2`, a warm `MODKIT_CACHE`, or
    `--depth 1` (fresh only: the shallow clone is what CI wants)."""

    def __init__(self, binary, workspace, jobs, label, extra_env=None, sync_args=(), cache=None):
        super().__init__(binary, workspace, jobs)
        self.name = f"modkit {label}"
        self.extra_env = dict(extra_env or {})
        self.sync_args = list(sync_args)
        self.cache = cache
        if cache:
            self.extra_env["MODKIT_CACHE"] = cache

    def cmd(self, *args):
        command = super().cmd(*args)
        return command + self.sync_args if args[:1] == ("sync",) else command

    def fresh(self, env):
        return super().fresh({**env, **self.extra_env})

    def sync(self, env):
        return super().sync({**env, **self.extra_env})

    def status(self, env):
        return super().status({**env, **self.extra_env})

    def forall(self, env):
        return super().forall({**env, **self.extra_env})

    def warm(self, env):
        """Fills the cache (untimed), as an earlier workspace's sync would have."""
        if self.cache:
            self.fresh(env)


def directory_bytes(path):
    total = 0
    for base, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(base, name)).st_size
            except OSError:
                pass
    return total


def git_dir_bytes(tool, names):
    return sum(directory_bytes(os.path.join(tool.workspace, "Libs", name, ".git")) for name in names)


def print_peaks(peaks, tools):
    print("\npeak resident memory (largest process, MiB; below ~20 is the bench's own fork):")
    for label, by_tool in peaks.items():
        print(f"  {label}: " + ", ".join(f"{tool.name} {by_tool.get(tool.name, 0) / 1024:.0f}" for tool in tools))


def run_transport(transport, options, fx, root, env, cores):
    """One interleaved measurement of every tool over one transport; prints its tables."""
    base = os.path.join(root, transport)
    os.makedirs(base, exist_ok=True)
    shaping = {"rtt": options.rtt, "bandwidth": options.bandwidth} if options.rtt is not None else None
    with servers.TRANSPORTS[transport](fx.remotes, env, shaping) as server:
        fx.url_base = server.url_base
        fx.root = base
        jobs = [int(value) for value in options.jobs.split(",")] if options.jobs else [None]
        tools = [bench.ModkitTool(options.modkit, fx.workspace(f"modkit{j or ''}", fx.count), j) for j in jobs]
        git_jobs = [int(value) for value in options.git_jobs.split(",")] if options.git_jobs else \
            ([4, 8, 16] if shaping else [cores])
        gits = [bench.GitTool(fx.plain_workspace(f"git{p}"), fx.names, fx.url_base, p) for p in git_jobs]
        git = gits[0]
        tools += gits
        j = jobs[0]
        tools.append(ModkitVariantTool(options.modkit, fx.workspace("modkit-libgit2", fx.count), j, "libgit2",
                                       extra_env={"MODKIT_FETCH_ENGINE": "libgit2"}))
        tools.append(ModkitVariantTool(options.modkit, fx.workspace("modkit-cache", fx.count), j, "warm cache",
                                       cache=os.path.join(base, "object-cache")))
        tools.append(ModkitVariantTool(options.modkit, fx.workspace("modkit-depth", fx.count), j, "--depth 1",
                                       sync_args=["--depth", "1"]))
        if options.peers:
            tools += peers.make_peers(fx, base, env)
        for tool in tools:
            if isinstance(tool, ModkitVariantTool):
                tool.warm(env)
        peaks, sizes = {}, {}

        def around(label, phase):
            if label == "update sync":
                for tool in tools:
                    sizes.setdefault(tool.name, {})[phase] = git_dir_bytes(tool, fx.names)

        only = options.only.split(",") if options.only else None
        samples = bench.measure(tools, options.runs, fx, env, only, peaks, around)
        bench.verify(tools, fx, env, fsck=shaping is not None)
        print(f"\n## heavy fixture over {transport} ({servers.describe(shaping)}): {fx.count} repositories (largest "
              f"~{fx.size_mb:g} MB of pack), median of {options.runs} runs, {cores} cores; git driven by xargs "
              f"-P{'|'.join(map(str, git_jobs))}\n")
        bench.print_table(samples, tools, [g.name for g in gits])
        print_peaks(peaks, tools)
        if "after" in sizes.get(git.name, {}) and options.runs:
            print(f"\nupdate sync, {options.runs} updates of one commit per remote: .git growth per update and "
                  ".git size after them (all repositories)")
            base_growth = (sizes[git.name]["after"] - sizes[git.name]["before"]) / options.runs
            for tool in tools:
                size = sizes.get(tool.name, {})
                if "after" not in size:
                    continue
                growth = (size["after"] - size["before"]) / options.runs
                print(f"  {tool.name}: {growth / 1024:.0f} KiB per update ({growth / max(base_growth, 1):.1f}x git), "
                      f".git {size['after'] / 2**20:.0f} MiB ({size['after'] / max(sizes[git.name]['after'], 1):.2f}x git)")
        sys.stdout.flush()


def main(options):
    root = options.root
    env = fixture.isolated_env(root)
    cores = os.cpu_count() or 1
    fx = HeavyFixture(root, options.heavy_size, env)
    fx.build()
    transports = list(servers.TRANSPORTS) if options.transport == "all" else (options.transport or "git").split(",")
    if options.rtt is not None and options.transport in (None, "all"):
        transports = ["git", "http"]
    for transport in transports:
        if transport not in servers.TRANSPORTS or (options.rtt is not None and transport == "file"):
            raise SystemExit(f"unknown transport {transport!r}: use file, git, http or all")
    for transport in transports:
        run_transport(transport, options, fx, root, env, cores)
