"""Running and timing commands for the benchmark; shared by bench.py and peers.py."""

import os
import signal
import shutil
import subprocess
import sys
import threading
import time


# The peak resident memory (KiB) of the largest process of the last command `run` waited for.
last_peak_kb = 0
# With `run(…, sample=True)`: the most open descriptors and threads of the command's own process, and the most
# child processes it had at once (sampled every few milliseconds from /proc; Linux only, else 0).
last_peak_fds = 0
last_peak_threads = 0
last_peak_children = 0
# The share of every core of this machine that was busy while the last `timed` command ran (its own processes, the
# servers and the proxy alike; /proc/stat, so Linux only, else None). Near 100%, a time is bound by this machine's
# CPU, which a server at internet distance would not share.
last_busy_share = None
# `run` samples every command while this is set (scale.py sets it around one untimed run per operation).
sampling = False


class ProcSampler(threading.Thread):
    """Polls /proc/<pid> while a process runs: its open descriptors, its threads, its live children."""

    def __init__(self, pid, interval=0.002):
        super().__init__(daemon=True)
        self.pid = pid
        self.interval = interval
        self.done = threading.Event()
        self.fds = self.threads = self.children = 0

    def run(self):
        base = f"/proc/{self.pid}"
        while not self.done.is_set():
            try:
                self.fds = max(self.fds, len(os.listdir(f"{base}/fd")))
                tasks = os.listdir(f"{base}/task")
                self.threads = max(self.threads, len(tasks))
                children = 0
                for task in tasks:
                    with open(f"{base}/task/{task}/children") as handle:
                        children += len(handle.read().split())
                self.children = max(self.children, children)
            except OSError:  # the process or one of its threads ended between two reads
                pass
            self.done.wait(self.interval)


class MeasuredPopen(subprocess.Popen):
    """Popen that reaps its child with wait4, keeping the maximum resident set of the process tree."""

    peak_kb = 0

    def _try_wait(self, wait_flags):
        try:
            pid, status, usage = os.wait4(self.pid, wait_flags)
        except ChildProcessError:
            return self.pid, 0
        if pid == self.pid:
            # Linux reports KiB, macOS bytes
            self.peak_kb = usage.ru_maxrss // (1024 if sys.platform == "darwin" else 1)
        return pid, status


# Seconds after which one command of the benchmark is stopped and counted as failed.
RUN_TIMEOUT = 600


def run(command, cwd, env, check=True, stdin=None, input=None, sample=None):
    """Runs `command`; its peak memory lands in `last_peak_kb`, and with `sample` (which costs the polling thread's
    CPU, so not for timed runs) its peak descriptors, threads and children in `last_peak_fds` and the others."""
    global last_peak_kb, last_peak_fds, last_peak_threads, last_peak_children
    process = MeasuredPopen(command, cwd=cwd, env=env, shell=isinstance(command, str),
                            stdin=subprocess.PIPE if input is not None else stdin,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    sampler = ProcSampler(process.pid) if (sampling if sample is None else sample) and os.path.isdir("/proc/self/task") else None
    if sampler:
        sampler.start()
    try:
        try:
            _, stderr = process.communicate(input, timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            # A tool that hangs (gita's hundred clones at once against git daemon's 32) must not hang the benchmark:
            # its whole process group goes, and the sample is a failure.
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise RuntimeError(f"{command} did not finish in {RUN_TIMEOUT} s in {cwd}")
        except BaseException:
            # interrupted: the command's own session would outlive the benchmark
            os.killpg(process.pid, signal.SIGKILL)
            raise
    finally:
        if sampler:
            sampler.done.set()
            sampler.join()
    last_peak_kb = process.peak_kb
    if sampler:
        last_peak_fds, last_peak_threads, last_peak_children = sampler.fds, sampler.threads, sampler.children
    if check and process.returncode != 0:
        raise RuntimeError(f"{command} failed ({process.returncode}) in {cwd}: {stderr[-2000:]}")
    return process.returncode


NSTAT_COUNTERS = ("TcpExtListenDrops", "TcpExtListenOverflows", "TcpExtTCPSynRetrans", "TcpRetransSegs", "TcpExtTCPTimeouts")


def tcp_counters():
    """The kernel's TCP counters that show a lost connection or segment (`nstat`), or {} where nstat is missing."""
    try:
        text = subprocess.run(["nstat", "-asz"] + list(NSTAT_COUNTERS), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True).stdout
    except OSError:
        return {}
    return {fields[0]: int(fields[1]) for fields in (line.split() for line in text.splitlines())
            if len(fields) >= 2 and fields[0] in NSTAT_COUNTERS}


def busy_cpu_seconds():
    """CPU seconds all cores have spent on anything but idling and waiting for disks since boot (the first line of
    /proc/stat), or None where there is no such file."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(value) for value in stat.readline().split()[1:8]]
    except (OSError, ValueError):
        return None
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def timed(command, cwd, env, check=True, stdin=None, input=None):
    # MODKIT_BENCH_NSTAT=1: each timed command says which TCP counters moved while it ran (a dropped syn costs a
    # second: the kernel retransmits it after its first timeout).
    global last_busy_share
    before = tcp_counters() if os.environ.get("MODKIT_BENCH_NSTAT") else None
    busy_before = busy_cpu_seconds()
    start = time.perf_counter()
    run(command, cwd, env, check, stdin, input)
    elapsed = time.perf_counter() - start
    busy_after = busy_cpu_seconds()
    last_busy_share = (busy_after - busy_before) / (elapsed * (os.cpu_count() or 1)) \
        if busy_before is not None and busy_after is not None and elapsed > 0 else None
    if before is not None:
        after = tcp_counters()
        moved = {name: after[name] - before.get(name, 0) for name in after if after[name] != before.get(name, 0)}
        print(f"  tcp {elapsed:.3f}s {' '.join(command[:3])[:60]}: {moved or 'nothing lost'}", file=sys.stderr)
    return elapsed


class Tool:
    """One way of doing the five operations on its own copy of the workspace.

    Each operation returns seconds, or None when the tool has no such operation (see `missing`)."""

    def __init__(self, name, workspace):
        self.name = name
        self.workspace = workspace
        # operation method name -> why the tool cannot do it ("n/a" in the table)
        self.missing = {}


def remove_clones(workspace):
    """Sets a workspace's clones aside before a fresh sync (untimed), into `.set-aside/` beside the workspace, and
    flushes the file system. They are not deleted here: on ext4 without a journal (as on the machine the README
    figures come from) every file created within 30 s of a mass deletion first scans the inode tables for the
    freed inodes it must not reuse, which made a fresh sync right after deleting the last one up to 4x slower, the
    warm-cache sync most of all. Nobody clones a workspace seconds after deleting another of the same size, so the
    sweep runs between measurements (`sweep_set_aside`)."""
    clones = os.path.join(workspace, "Libs")
    if os.path.isdir(clones):
        aside = os.path.join(os.path.dirname(os.path.abspath(workspace)), ".set-aside")
        os.makedirs(aside, exist_ok=True)
        os.rename(clones, os.path.join(aside, f"{os.path.basename(workspace)}-{time.monotonic_ns()}"))
    os.sync()


def sweep_set_aside(root, settle=31):
    """Deletes every set-aside clone under `root` and waits `settle` seconds for freed inodes to age (see
    `remove_clones`) before the next measurement."""
    found = False
    for base, directories, _ in os.walk(root):
        if ".set-aside" in directories:
            shutil.rmtree(os.path.join(base, ".set-aside"), ignore_errors=True)
            found = True
        directories[:] = [name for name in directories if name != ".git"]
    if found:
        os.sync()
        time.sleep(settle)
