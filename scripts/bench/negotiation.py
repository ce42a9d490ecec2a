#!/usr/bin/env python3
"""Shows the fetch negotiation of an update sync: which "have" lines modkit (libgit2) and git send to the
server for one new commit, and what that costs. Serves one heavy-fixture repository over git:// with
GIT_TRACE_PACKET on the server side (git upload-pack inherits it from git daemon), then per client:
clone, one new commit on the remote, fetch; prints the haves (with their commit dates and how far
behind the remote tip they are), the ACKs, and the size of what the clone received.

usage: negotiation.py --modkit BINARY [--heavy-size MB] [--repository Core] [--transport git|http]"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import fixture  # noqa: E402
import heavy  # noqa: E402
import servers  # noqa: E402


def git(*args, cwd, env):
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout


def objects_bytes(clone):
    total = 0
    for base, _, files in os.walk(os.path.join(clone, ".git", "objects")):
        total += sum(os.lstat(os.path.join(base, name)).st_size for name in files)
    return total


def negotiation(trace):
    """(haves, acks, flushes) the upload-pack side read and wrote, from a GIT_TRACE_PACKET file."""
    haves, acks, rounds = [], [], 0
    with open(trace, errors="replace") as handle:
        for line in handle:
            if "upload-pack" not in line:
                continue
            received = re.search(r"packet:\s+upload-pack< (.*)$", line)
            sent = re.search(r"packet:\s+upload-pack> (.*)$", line)
            if received and received.group(1).startswith("have "):
                haves.append(received.group(1).split()[1])
            elif received and received.group(1) == "0000":
                rounds += 1
            elif sent and sent.group(1).startswith("ACK"):
                acks.append(sent.group(1))
    return haves, acks, rounds


def describe(remote, oid, tip, env):
    date = git("log", "-1", "--format=%cs", oid, cwd=remote, env=env).strip()
    behind = git("rev-list", "--count", f"{oid}..{tip}", cwd=remote, env=env).strip()
    refs = git("for-each-ref", "--points-at", oid, "--format=%(refname:short)", cwd=remote, env=env).split()
    return f"{oid[:10]} {date} {behind:>5} commits behind main" + (f" ({', '.join(refs)})" if refs else "")


def main():
    # SIGTERM unwinds like an exception, so servers are stopped and the fixture removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser()
    parser.add_argument("--modkit", required=True)
    parser.add_argument("--heavy-size", type=float, default=100)
    parser.add_argument("--repository", default="Core")
    parser.add_argument("--transport", default="git", choices=["git", "http"])
    options = parser.parse_args()
    options.modkit = os.path.abspath(options.modkit)
    root = tempfile.mkdtemp(prefix="modkit-negotiation-")
    env = fixture.isolated_env(root)
    try:
        remotes = os.path.join(root, "remotes")
        os.makedirs(remotes)
        cached = heavy.cached_remotes(options.heavy_size, env)
        shutil.copytree(os.path.join(cached, f"{options.repository}.git"),
                        os.path.join(remotes, f"{options.repository}.git"), copy_function=os.link)
        remote = os.path.join(remotes, f"{options.repository}.git")
        trace = os.path.join(root, "packet-trace")
        server_env = dict(env, GIT_TRACE_PACKET=trace)
        with servers.TRANSPORTS[options.transport](remotes, server_env) as server:
            url = f"{server.url_base}/{options.repository}.git"
            clients = {
                "git": (lambda ws: git("clone", "-q", "-b", "main", url, os.path.join(ws, "clone"), cwd=ws, env=env),
                        lambda ws: git("-C", "clone", "fetch", "-q", "origin", cwd=ws, env=env)),
                "modkit": (lambda ws: subprocess.run([options.modkit, "-q", "sync"], cwd=ws, env=env, check=True),
                           lambda ws: subprocess.run([options.modkit, "-q", "sync"], cwd=ws, env=env, check=True)),
            }
            for round_index, (name, (clone, fetch)) in enumerate(clients.items()):
                workspace = os.path.join(root, name)
                os.makedirs(workspace)
                with open(os.path.join(workspace, "modkit.yml"), "w") as manifest:
                    manifest.write(f"version: 1\nworkspace: N\nmodules:\n  - name: {options.repository}\n"
                                   f"    url: {url}\n    path: clone\n    revision: main\n")
                clone(workspace)
                before = objects_bytes(os.path.join(workspace, "clone"))
                heavy.push_commit(remote, 9000 + round_index, env)
                tip = git("rev-parse", "main", cwd=remote, env=env).strip()
                open(trace, "w").close()
                fetch(workspace)
                haves, acks, rounds = negotiation(trace)
                grown = objects_bytes(os.path.join(workspace, "clone")) - before
                refs = git("for-each-ref", "--format=%(refname)", cwd=os.path.join(workspace, "clone"), env=env).split()
                print(f"\n{name}: {len(haves)} haves in {rounds} flush-terminated rounds, {len(acks)} ACKs; "
                      f"objects grew by {grown / 1024:.0f} KiB; local refs: {len(refs)} "
                      f"({sum(r.startswith('refs/remotes/') for r in refs)} remote-tracking, "
                      f"{sum(r.startswith('refs/tags/') for r in refs)} tags)")
                for oid in haves[:25]:
                    print("  have " + describe(remote, oid, tip, env))
                if len(haves) > 25:
                    print(f"  ... {len(haves) - 25} more")
                for ack in acks[:5]:
                    print("  " + ack)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
