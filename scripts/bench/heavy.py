"""The heavy benchmark fixture: repositories of real size, generated deterministically by streaming a
`git fast-import` file (fixed seed, fixed dates: the same bytes on every machine), cached between runs.

Each repository has years of history on `main` (thousands of commits over thousands of text files, a few
big binary assets re-committed now and then), `next` a little ahead of `main`, maintenance branches (`1.2.x`) with
fixes (the oldest still getting backports), stale `feature/*` branches, and about a hundred lightweight and
annotated tags, as hosted repositories have. Standard library only."""

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys

GENERATOR_VERSION = 8
# (name, share of the largest repository's size); seven repositories, a typical mid-size workspace.
REPOSITORIES = [("Core", 1.0), ("Networking", 0.5), ("UIKitExtras", 0.3), ("Analytics", 0.2),
                ("Storage", 0.12), ("Logging", 0.06), ("Utils", 0.03)]
START = 1420070400  # 2015-01-01T00:00:00Z
WORDS = ("let var func return self guard else if for in while struct class enum case switch default "
         "import public private internal static final init deinit throws try await async value result error "
         "count index name path url data string array dictionary optional closure completion handler view "
         "model controller request response session cache image layout frame bounds color font").split()


def say(message):
    print(f"heavy: {message}", file=sys.stderr, flush=True)


def plan(largest_mb):
    """Per repository: name, seed, commits, files, binary assets (count, size), releases."""
    result = []
    for index, (name, share) in enumerate(REPOSITORIES):
        size = max(1.0, largest_mb * share)
        result.append({
            "name": name, "seed": 1000 + index,
            # the text history of the largest is ~40% of its pack at 100 MB: 6,000 commits, 4,000 files
            "commits": max(200, int(60 * largest_mb * share ** 0.7)),
            "files": max(100, int(min(4000, 40 * largest_mb) * share ** 0.7)),
            # about half the pack in incompressible assets (images, archives), the rest text history
            "asset_mb": size * 0.5, "asset_size": max(256 << 10, min(6 << 20, int(size * (1 << 20) / 16))),
            "years": 8,
        })
    return result


def key(largest_mb):
    largest_mb = float(largest_mb)
    text = json.dumps({"version": GENERATOR_VERSION, "largest_mb": largest_mb, "plan": plan(largest_mb)},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_root():
    base = os.environ.get("MODKIT_BENCH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "modkit-bench")
    return base


class Stream:
    """Writes fast-import commands to a pipe, buffering."""

    def __init__(self, pipe):
        self.pipe = pipe
        self.mark = 0

    def write(self, text):
        self.pipe.write(text.encode() if isinstance(text, str) else text)

    def data(self, payload):
        payload = payload.encode() if isinstance(payload, str) else payload
        self.write(f"data {len(payload)}\n")
        self.write(payload)
        self.write("\n")

    def blob(self, payload):
        self.mark += 1
        self.write(f"blob\nmark :{self.mark}\n")
        self.data(payload)
        return self.mark


def source_line(rng):
    words = rng.choices(WORDS, k=rng.randint(3, 10))
    return "    " * rng.randint(0, 3) + " ".join(words) + ("" if rng.random() < 0.7 else f" // {rng.randint(0, 9999)}")


def source_file(rng, path):
    lines = [f"// {path}", "import Foundation", ""]
    lines += [source_line(rng) for _ in range(rng.randint(20, 160))]
    return lines


def generate(spec, stream):
    """The whole history of one repository as fast-import commands."""
    rng = random.Random(spec["seed"])
    directories = [f"Sources/{spec['name']}/{part}" for part in
                   ("Core", "Models", "Views", "Networking", "Storage", "Extensions", "Internal", "Support")]
    directories += [f"Tests/{spec['name']}Tests"]
    files = {}
    for index in range(spec["files"]):
        path = f"{rng.choice(directories)}/File{index:04d}.swift"
        files[path] = source_file(rng, path)
    assets = [f"Resources/asset{index}.bin" for index in range(4)]
    asset_versions = max(1, int(spec["asset_mb"] * (1 << 20) / spec["asset_size"]))
    asset_every = max(1, spec["commits"] // asset_versions)
    span = spec["years"] * 365 * 86400
    authors = [("Ada Lovelace", "ada@example.com"), ("Grace Hopper", "grace@example.com"),
               ("Linus Torvalds", "linus@example.com"), ("Margaret Hamilton", "margaret@example.com")]
    when = START
    tags = []
    releases = []
    features = []

    def commit(ref, message, changes, parent=None, at=None):
        """A commit on `ref`; `at` dates it in the past (a fix on an old release branch)."""
        nonlocal when
        if at is None:
            when += max(60, int(span / spec["commits"] * rng.uniform(0.2, 1.8)))
        stamp = at or when
        marks = [(path, stream.blob(payload)) for path, payload in changes]
        author = rng.choice(authors)
        stream.mark += 1
        stream.write(f"commit {ref}\nmark :{stream.mark}\n"
                     f"author {author[0]} <{author[1]}> {stamp} +0000\n"
                     f"committer {author[0]} <{author[1]}> {stamp} +0000\n")
        stream.data(message)
        if parent:
            stream.write(f"from {parent}\n")
        for path, mark in marks:
            stream.write(f"M 100644 :{mark} {path}\n")
        stream.write("\n")
        return stream.mark

    first = commit("refs/heads/main", "Initial import\n",
                   [(path, "\n".join(lines) + "\n") for path, lines in files.items()]
                   + [("README.md", f"# {spec['name']}\n"), ("VERSION", "0.1.0\n")])
    last = first
    paths = list(files)
    for number in range(1, spec["commits"]):
        changes = []
        for path in rng.sample(paths, rng.randint(1, 4)):
            lines = files[path]
            for _ in range(rng.randint(1, 6)):
                position = rng.randrange(3, len(lines) + 1)
                if rng.random() < 0.6 or len(lines) < 10:
                    lines.insert(position, source_line(rng))
                else:
                    lines[position - 1] = source_line(rng)
            changes.append((path, "\n".join(lines) + "\n"))
        if number % asset_every == 0:
            changes.append((rng.choice(assets), rng.randbytes(spec["asset_size"])))
        if rng.random() < 0.03:
            path = f"{rng.choice(directories)}/Added{number:05d}.swift"
            files[path] = source_file(rng, path)
            paths.append(path)
            changes.append((path, "\n".join(files[path]) + "\n"))
        last = commit("refs/heads/main", f"Change {number}: {' '.join(rng.choices(WORDS, k=5))}\n", changes)
        # stale feature branches, as on any hosted repository: a commit off main, years ago
        if number % max(1, spec["commits"] // 30) == 0 and number < spec["commits"] * 0.8:
            features.append((number, last, when))
        # a release every ~1% of the history (Alamofire has ~100 tags), a maintenance line every 15th
        if number % max(10, spec["commits"] // 100) == 0:
            count = len(tags)
            version = f"{1 + count // 25}.{count // 5 % 5}.{count % 5}"
            tags.append((version, last))
            if count % 15 == 14:
                releases.append((version, last, when))
    # As in real repositories, release branches end years before today's main: their fixes are as old
    # as the release they fix.
    for number, mark, stamp in features:
        path = rng.choice(paths)
        text = "\n".join(files[path] + [f"// experiment {number}"]) + "\n"
        commit(f"refs/heads/feature/experiment-{number:05d}", f"Experiment {number}\n", [(path, text)],
               parent=f":{mark}", at=stamp + 3600)
    release_tips = []
    for version, mark, stamp in releases:
        fix = rng.choice(paths)
        files_fix = files[fix] + [f"// fix for {version}"]
        release_tips.append(stamp)
        release_tips[-1] = commit(f"refs/heads/{version.rsplit('.', 1)[0]}.x", f"Fix for {version}\n", [(fix, "\n".join(files_fix) + "\n")],
               parent=f":{mark}", at=stamp + 3 * 86400)
    next_tip = f":{last}"
    for number in range(5):
        path = rng.choice(paths)
        text = "\n".join(files[path] + [f"// wip {number}"]) + "\n"
        next_tip = ":%d" % commit("refs/heads/next", f"Work in progress {number}\n", [(path, text)], parent=next_tip)
    # ...except the oldest one, a long-term-support line that still gets backports: its newest commit
    # is today's, on top of years-old history.
    if releases:
        version = releases[0][0]
        fix = rng.choice(paths)
        text = "\n".join(files[fix] + [f"// backport to {version}"]) + "\n"
        commit(f"refs/heads/{version.rsplit('.', 1)[0]}.x", f"Backport to {version}\n", [(fix, text)],
               parent=f":{release_tips[0]}", at=when + 86400)
    for index, (version, mark) in enumerate(tags):
        if index % 2:
            stream.write(f"reset refs/tags/{version}\nfrom :{mark}\n\n")
        else:
            stream.write(f"tag {version}\nfrom :{mark}\ntagger Release Bot <bot@example.com> {START + index} +0000\n")
            stream.data(f"Release {version}\n")
    stream.write("done\n")


def build_one(spec, path, env):
    """A bare repository at `path`, packed as a server's would be."""
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", path], env=env, check=True)
    process = subprocess.Popen(["git", "fast-import", "--quiet", "--done"], cwd=path, env=env, stdin=subprocess.PIPE)
    generate(spec, Stream(process.stdin))
    process.stdin.close()
    if process.wait() != 0:
        raise RuntimeError(f"git fast-import failed for {spec['name']}")
    # fast-import's pack has few deltas; a server's repository is repacked (git gc)
    subprocess.run(["git", "repack", "-a", "-d", "-q", "--window=10", "--depth=50"], cwd=path, env=env, check=True)
    subprocess.run(["git", "config", "http.receivepack", "true"], cwd=path, env=env, check=True)
    subprocess.run(["git", "config", "daemon.receivepack", "true"], cwd=path, env=env, check=True)


def cached_remotes(largest_mb, env):
    """The directory of generated bare repositories for this size, built once and then reused."""
    largest_mb = float(largest_mb)
    directory = os.path.join(cache_root(), f"heavy-v{GENERATOR_VERSION}-{largest_mb:g}mb-{key(largest_mb)}")
    if os.path.isfile(os.path.join(directory, "complete")):
        say(f"using cached fixture {directory}")
        return directory
    building = directory + f".building-{os.getpid()}"
    shutil.rmtree(building, ignore_errors=True)
    os.makedirs(building)
    try:
        for spec in plan(largest_mb):
            say(f"generating {spec['name']} ({spec['commits']} commits, {spec['files']} files)")
            build_one(spec, os.path.join(building, f"{spec['name']}.git"), env)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    with open(os.path.join(building, "complete"), "w") as handle:
        json.dump(plan(largest_mb), handle, indent=1)
    shutil.rmtree(directory, ignore_errors=True)
    os.rename(building, directory)
    say(f"cached fixture in {directory}")
    return directory


def names():
    return [name for name, _ in REPOSITORIES]


def copy_remotes(cached, destination):
    """Hard-linked copy of the cached bare repositories (git replaces files by rename, never in place)."""
    shutil.copytree(cached, destination, copy_function=os.link)


def push_commit(remote, round_index, env):
    """One new commit on `main` of the bare repository `remote`, changing one file (not timed)."""
    content = f"change {round_index}\n"
    stream_text = (f"commit refs/heads/main\ncommitter Bench <bench@example.com> {START + 400000000 + round_index} +0000\n"
                   f"data 12\nUpdate {round_index:04d}\nfrom refs/heads/main^0\n"
                   f"M 100644 inline CHANGES.md\ndata {len(content)}\n{content}\n")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=remote, env=env, input=stream_text.encode(), check=True)


if __name__ == "__main__":
    size = float(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(cached_remotes(size, dict(os.environ)))
