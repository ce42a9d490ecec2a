"""Builds the benchmark fixture: N module repositories as bare remotes, workspaces for each tool,
and a workspace of directory modules with 1,000 spec files for pin."""

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor


def isolated_env(root):
    """An environment whose git config lives in the fixture, never the user's."""
    home = os.path.join(root, "home")
    os.makedirs(home, exist_ok=True)
    with open(os.path.join(home, ".gitconfig"), "w") as config:
        config.write("[user]\n\tname = modkit bench\n\temail = bench@modkit.invalid\n"
                     "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(HOME=home, GIT_CONFIG_GLOBAL=os.path.join(home, ".gitconfig"), GIT_CONFIG_NOSYSTEM="1",
               NO_COLOR="1", XDG_CONFIG_HOME=os.path.join(home, ".config"))
    return env


LAYOUTS = {"lineage": "lineage-21.0.tsv"}


def layout(name):
    """(module, repository, path) of every project of a real manifest (`LAYOUTS`), in its order."""
    rows = []
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), LAYOUTS[name])) as handle:
        for line in handle:
            if line.strip() and not line.startswith("#"):
                rows.append(tuple(line.rstrip("\n").split("\t")))
    return rows


class Fixture:
    """`count` tiny repositories: Mod001… under Libs/, or with `layout` (rows of `layout()`) the first `count` projects of
    a real manifest, each checked out at its own path from a bare repository at remotes/<repository>.git (a repository
    the manifest checks out at several paths is one remote, as there). `rows` are (module, repository, path);
    `names` the repositories, each once."""

    def __init__(self, root, count, env, layout=None):
        self.root = root
        self.count = count
        self.env = env
        self.rows = layout[:count] if layout else [(f"Mod{i:03d}", f"Mod{i:03d}", f"Libs/Mod{i:03d}") for i in range(1, count + 1)]
        if len(self.rows) < count:
            raise SystemExit(f"the layout has {len(self.rows)} projects, fewer than {count}")
        self.names = list(dict.fromkeys(repository for _, repository, _ in self.rows))
        self.remotes = os.path.join(root, "remotes")
        self.sources = os.path.join(root, "src")
        self.url_base = f"file://{self.remotes}"

    def git(self, *args, cwd=None):
        subprocess.run(["git", *args], cwd=cwd or self.root, env=self.env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def build(self, jobs=1):
        """A template repository with some history, copied and made unique per module (`jobs` modules at a time)."""
        os.makedirs(self.remotes, exist_ok=True)
        template = os.path.join(self.root, "template")
        os.makedirs(os.path.join(template, "Sources"), exist_ok=True)
        self.git("init", "-q", cwd=template)
        for commit in range(10):
            for index in range(30):
                with open(os.path.join(template, "Sources", f"File{index}.swift"), "a") as handle:
                    handle.write(f"// revision {commit} of file {index}\n" + "let value = 1\n" * 20)
            self.git("add", "-A", cwd=template)
            self.git("commit", "-qm", f"Commit {commit}", cwd=template)
        os.makedirs(self.sources, exist_ok=True)
        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(lambda name: self.make_module(template, name), self.names))

    def source(self, name):
        """The work tree that makes `name`'s remote: one flat folder each, as a repository name may lie inside another's
        (LineageOS has `LineageOS/android` and `LineageOS/android/…`)."""
        return os.path.join(self.sources, name.replace("/", "__"))

    def make_module(self, template, name):
        """One module's source clone and its bare remote, from the template."""
        work = self.source(name)
        self.git("clone", "-q", template, work)
        with open(os.path.join(work, "VERSION"), "w") as handle:
            handle.write("1.0.0\n")
        with open(os.path.join(work, "NAME"), "w") as handle:
            handle.write(name + "\n")
        self.git("add", "-A", cwd=work)
        self.git("commit", "-qm", f"{name} 1.0.0", cwd=work)
        self.git("clone", "-q", "--bare", "--no-local", work, os.path.join(self.remotes, f"{name}.git"))
        self.git("remote", "set-url", "origin", os.path.join(self.remotes, f"{name}.git"), cwd=work)

    def push_commit_everywhere(self, round_index, changed=None):
        """One new commit on main in every remote, or in `changed` of them spread over the list (not timed)."""
        step = max(1, len(self.names) // changed) if changed else 1
        for name in self.names[::step][:changed or len(self.names)]:
            work = self.source(name)
            with open(os.path.join(work, "CHANGES.md"), "a") as handle:
                handle.write(f"change {round_index}\n")
            self.git("add", "-A", cwd=work)
            self.git("commit", "-qm", f"Change {round_index}", cwd=work)
            self.git("push", "-q", "origin", "HEAD:main", cwd=work)

    def workspace(self, label, count):
        """A modkit workspace listing the first `count` modules, each at its path (Libs/<name> without a layout)."""
        path = os.path.join(self.root, label)
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "modkit.yml"), "w") as manifest:
            manifest.write(f"version: 1\nworkspace: Bench\ndefaults:\n  url-base: {self.url_base}\n"
                           "  revision: main\nmodules:\n")
            for module, repository, checkout in self.rows[:count]:
                manifest.write(f"  - name: {module}\n    url: {repository}.git\n    path: {checkout}\n")
        return path

    def plain_workspace(self, label):
        path = os.path.join(self.root, label)
        os.makedirs(path, exist_ok=True)
        return path


PODSPEC = """Pod::Spec.new do |s|
  s.name     = '{name}'
  s.version  = '1.0.0'
  s.swift_version = '5.9'
  s.source_files = 'Sources/**/*.swift'
{deps}end
"""

PACKAGE = """// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "{name}",
    dependencies: [
{deps}    ],
    targets: [.target(name: "{name}")]
)
"""


def make_spec_workspace(path, modules):
    """Directory modules, each with a podspec, Package.swift, Podfile and Cartfile depending on earlier modules."""
    os.makedirs(path, exist_ok=True)
    names = [f"Spec{index:03d}" for index in range(modules)]
    with open(os.path.join(path, "modkit.yml"), "w") as manifest:
        manifest.write("version: 1\nworkspace: Pins\nmodules:\n")
        for name in names:
            manifest.write(f"  - name: {name}\n    path: Modules/{name}\n")
    for index, name in enumerate(names):
        directory = os.path.join(path, "Modules", name)
        os.makedirs(directory, exist_ok=True)
        deps = names[max(0, index - 3):index]
        with open(os.path.join(directory, f"{name}.podspec"), "w") as handle:
            handle.write(PODSPEC.format(name=name, deps="".join(f"  s.dependency '{dep}', '~> 1.0'\n" for dep in deps)))
        with open(os.path.join(directory, "Package.swift"), "w") as handle:
            handle.write(PACKAGE.format(name=name, deps="".join(
                f'        .package(url: "https://git.example.com/ios/{dep}.git", from: "1.0.0"),\n' for dep in deps)))
        with open(os.path.join(directory, "Podfile"), "w") as handle:
            handle.write("platform :ios, '13.0'\ntarget 'App' do\n" + "".join(f"  pod '{dep}'\n" for dep in deps) + "end\n")
        with open(os.path.join(directory, "Cartfile"), "w") as handle:
            handle.write("".join(f'github "example/{dep}" ~> 1.0\n' for dep in deps) or "# no dependencies\n")
    return path
