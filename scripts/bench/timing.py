"""Running and timing commands for the benchmark; shared by bench.py and peers.py."""

import os
import shutil
import subprocess
import time


def run(command, cwd, env, check=True, stdin=None):
    result = subprocess.run(command, cwd=cwd, env=env, shell=isinstance(command, str), stdin=stdin,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"{command} failed ({result.returncode}) in {cwd}: {result.stderr[-2000:]}")
    return result.returncode


def timed(command, cwd, env, check=True, stdin=None):
    start = time.perf_counter()
    run(command, cwd, env, check, stdin)
    return time.perf_counter() - start


class Tool:
    """One way of doing the five operations on its own copy of the workspace.

    Each operation returns seconds, or None when the tool has no such operation (see `missing`)."""

    def __init__(self, name, workspace):
        self.name = name
        self.workspace = workspace
        # operation method name -> why the tool cannot do it ("n/a" in the table)
        self.missing = {}


def remove_clones(workspace):
    """Deletes a workspace's clones before a fresh sync (untimed) and flushes the file system, so the
    deferred cost of the deletion does not land on whichever tool happens to clone next."""
    shutil.rmtree(os.path.join(workspace, "Libs"), ignore_errors=True)
    os.sync()
