"""Peer tools for `scripts/bench.sh --peers`: west, vcstool, tsrc and gita (pip, in a throwaway venv under
the fixture directory) and myrepos (Debian's `mr`). Each works on its own copy of the workspace, with
its own manifest format, and does the same five operations as modkit where it has them."""

import csv
import os
import shutil
import subprocess
import sys

from timing import Tool, remove_clones, run, timed

PIP_PEERS = ["west", "vcstool", "tsrc", "gita"]


def say(message):
    print(f"peers: {message}", file=sys.stderr, flush=True)


def install_venv(root):
    """A venv under the fixture with every pip peer that installs; returns (bin dir, installed names)."""
    venv = os.path.join(root, "peers-venv")
    try:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True, stdout=subprocess.DEVNULL)
    except (subprocess.CalledProcessError, OSError) as error:
        say(f"cannot create a venv ({error}); skipping {', '.join(PIP_PEERS)}")
        return None, set()
    python = os.path.join(venv, "bin", "python")
    installed = set()
    for package in PIP_PEERS:
        # The user's own environment (not the fixture's HOME), so pip's download cache is reused.
        result = subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", package],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode == 0:
            installed.add(package)
        else:
            say(f"skipping {package}: pip install failed: {result.stderr.strip().splitlines()[-1:]}")
    return os.path.join(venv, "bin"), installed


def git(env, *args, cwd):
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def manifest_repository(work, bare, env, files):
    """A manifest git repository at `work` holding `files`, pushed to the bare remote `bare`."""
    os.makedirs(work, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(work, name), "w") as handle:
            handle.write(text)
    git(env, "init", "-q", "-b", "main", cwd=work)
    git(env, "add", "-A", cwd=work)
    git(env, "commit", "-qm", "manifest", cwd=work)
    if bare:
        git(env, "clone", "-q", "--bare", work, bare, cwd=work)


class Peer(Tool):
    """A peer working in `<root>/<name>` with its modules under `Libs/`."""

    def __init__(self, name, fx, root, env, jobs):
        super().__init__(name, os.path.join(root, name.split()[0]))
        os.makedirs(self.workspace, exist_ok=True)
        self.fx = fx
        self.env = dict(env)
        self.jobs = jobs

    def url(self, module):
        return f"{self.fx.url_base}/{module}.git"

    def clear(self):
        remove_clones(self.workspace)

    def t(self, command, env=None):
        return timed(command, self.workspace, env or self.env)


class West(Peer):
    """west: `west init -l` around a local manifest repository; `west update` is serial and fetches every
    project on each run, then checks out `manifest-rev` detached."""

    def __init__(self, fx, root, env, bindir, jobs):
        super().__init__("west (serial)", fx, root, env, jobs)
        self.west = os.path.join(bindir, "west")
        projects = "".join(f"    - name: {m}\n      repo-path: {m}.git\n      path: Libs/{m}\n" for m in fx.names)
        manifest = (f"manifest:\n  remotes:\n    - name: local\n      url-base: {fx.url_base}\n"
                    f"  defaults:\n    remote: local\n    revision: main\n  projects:\n{projects}"
                    "  self:\n    path: manifest\n")
        manifest_repository(os.path.join(self.workspace, "manifest"), None, self.env, {"west.yml": manifest})
        run([self.west, "init", "-l", "manifest"], self.workspace, self.env)

    def fresh(self, env):
        self.clear()
        return self.t([self.west, "update"])

    def sync(self, env):
        return self.t([self.west, "update"])

    def status(self, env):
        return self.t([self.west, "status"])

    def forall(self, env):
        return self.t([self.west, "forall", "-c", "git rev-parse HEAD"])


class Vcstool(Peer):
    """vcstool: a `.repos` file; `vcs import` clones, `vcs pull` updates, `-w` worker threads."""

    def __init__(self, fx, root, env, bindir, jobs):
        super().__init__(f"vcstool -w{jobs}", fx, root, env, jobs)
        self.vcs = os.path.join(bindir, "vcs")
        self.repos = os.path.join(self.workspace, "bench.repos")
        with open(self.repos, "w") as handle:
            handle.write("repositories:\n")
            for m in fx.names:
                handle.write(f"  Libs/{m}:\n    type: git\n    url: {self.url(m)}\n    version: main\n")

    def fresh(self, env):
        self.clear()
        return self.t([self.vcs, "import", "-w", str(self.jobs), "--input", self.repos, "."])

    def sync(self, env):
        return self.t([self.vcs, "pull", "-w", str(self.jobs), "Libs"])

    def status(self, env):
        return self.t([self.vcs, "status", "-w", str(self.jobs), "Libs"])

    def forall(self, env):
        return self.t([self.vcs, "custom", "-w", str(self.jobs), "--git", "--args", "rev-parse", "HEAD"])


class Tsrc(Peer):
    """tsrc: a manifest repository served as a bare remote, `tsrc init`, then `tsrc sync` (which clones
    missing repositories too) without re-fetching the manifest, since modkit reads its manifest in place."""

    def __init__(self, fx, root, env, bindir, jobs):
        super().__init__(f"tsrc -j{jobs}", fx, root, env, jobs)
        self.tsrc = os.path.join(bindir, "tsrc")
        repos = "".join(f"  - dest: Libs/{m}\n    url: {self.url(m)}\n    branch: main\n" for m in fx.names)
        bare = os.path.join(root, "tsrc-manifest.git")
        manifest_repository(os.path.join(root, "tsrc-manifest"), bare, self.env, {"manifest.yml": f"repos:\n{repos}"})
        run([self.tsrc, "init", "-j", str(jobs), f"file://{bare}"], self.workspace, self.env)

    def fresh(self, env):
        self.clear()
        return self.t([self.tsrc, "sync", "--no-update-manifest", "-j", str(self.jobs)])

    def sync(self, env):
        return self.t([self.tsrc, "sync", "--no-update-manifest", "-j", str(self.jobs)])

    def status(self, env):
        return self.t([self.tsrc, "status", "-j", str(self.jobs)])

    def forall(self, env):
        return self.t([self.tsrc, "foreach", "-j", str(self.jobs), "--", "git", "rev-parse", "HEAD"])


class Gita(Peer):
    """gita: repositories registered in its own config dir; `gita clone -p -f` clones from a `gita freeze`
    file, starting every `git clone` at once (then a checkout of the branch); `gita pull` runs every
    `git pull` at once; `gita ll` is its status; `gita shell` runs a command in each repository in turn."""

    def __init__(self, fx, root, env, bindir, jobs):
        super().__init__("gita (all at once)", fx, root, env, jobs)
        self.gita = os.path.join(bindir, "gita")
        self.env["GITA_PROJECT_HOME"] = os.path.join(self.workspace, ".gita")
        self.freeze = os.path.join(self.workspace, "repos.csv")
        with open(self.freeze, "w", newline="") as handle:
            writer = csv.writer(handle)
            for m in fx.names:
                writer.writerow([self.url(m), m, os.path.join(self.workspace, "Libs", m), "", "", "main"])

    def fresh(self, env):
        self.clear()
        os.makedirs(os.path.join(self.workspace, "Libs"), exist_ok=True)
        return self.t([self.gita, "clone", "-p", "-f", self.freeze])

    def sync(self, env):
        return self.t([self.gita, "pull"])

    def status(self, env):
        return self.t([self.gita, "ll"])

    def forall(self, env):
        return self.t([self.gita, "shell", "git", "rev-parse", "HEAD"])


class Myrepos(Peer):
    """myrepos (`mr`): a `.mrconfig` with one `checkout` command per repository, `mr -j N` for parallel
    checkout/update/status/run; the config is listed in `~/.mrtrust` as mr requires."""

    def __init__(self, fx, root, env, jobs):
        super().__init__(f"myrepos -j{jobs}", fx, root, env, jobs)
        self.config = os.path.join(self.workspace, ".mrconfig")
        with open(self.config, "w") as handle:
            for m in fx.names:
                handle.write(f"[Libs/{m}]\ncheckout = git clone -q -b main '{self.url(m)}' '{m}'\n\n")
        with open(os.path.join(self.env["HOME"], ".mrtrust"), "a") as handle:
            handle.write(self.config + "\n")

    def mr(self, *args):
        return self.t(["mr", "-q", "-d", self.workspace, "-c", self.config, "-j", str(self.jobs), *args])

    def fresh(self, env):
        self.clear()
        return self.mr("checkout")

    def sync(self, env):
        return self.mr("update")

    def status(self, env):
        return self.mr("status")

    def forall(self, env):
        return self.mr("run", "git", "rev-parse", "HEAD")


def make_peers(fixture, root, env):
    """Every peer that installs and sets up; the others are skipped with a message."""
    jobs = os.cpu_count() or 1
    peers = []
    bindir, installed = install_venv(root)
    makers = [("west", West), ("vcstool", Vcstool), ("tsrc", Tsrc), ("gita", Gita)]
    for package, maker in makers:
        if package not in installed:
            continue
        try:
            peers.append(maker(fixture, root, env, bindir, jobs))
        except (subprocess.CalledProcessError, RuntimeError, OSError) as error:
            say(f"skipping {package}: setup failed: {error}")
    if shutil.which("mr") is None:
        result = subprocess.run(["apt-get", "install", "-y", "-q", "myrepos"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True) if shutil.which("apt-get") else None
        if shutil.which("mr") is None:
            say("skipping myrepos: `mr` is not installed and `apt-get install myrepos` failed"
                + (f": {result.stderr.strip()[-300:]}" if result else ""))
    if shutil.which("mr") is not None:
        try:
            peers.append(Myrepos(fixture, root, env, jobs))
        except (subprocess.CalledProcessError, RuntimeError, OSError) as error:
            say(f"skipping myrepos: setup failed: {error}")
    return peers
