"""`scripts/bench.sh --scale 100,500,1500`: does modkit stay linear in the number of repositories (issue 36)?
For each N, the first N tiny repositories of one fixture (fixture.py, file:// remotes) are cloned by modkit and by
plain git; then status, no-op sync, `forall -c true`, `list` and `affected --since origin/main` are timed,
interleaved with plain git at xargs -P 4, 8 and 16 (one shared clone set; ratios to the fastest). One more untimed
run of each modkit operation samples /proc for its peak open descriptors, threads and child processes. Prints,
per N, time, ratio, peak resident memory, descriptors and threads, then how time and memory per module grow."""

import os
import sys
import time

import bench
import fixture
import timing

GOAL = 0.33  # issue 36: status and no-op sync at N = 1,500 at most this ratio to plain git


def load():
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


def run_scale(options, root):
    counts = sorted({int(value) for value in options.scale.split(",")})
    cores = os.cpu_count() or 1
    env = fixture.isolated_env(root)
    git_jobs = [int(value) for value in options.git_jobs.split(",")] if options.git_jobs else [4, 8, 16]
    jobs = int(options.jobs) if options.jobs and options.jobs != "0" else None
    only = options.only.split(",") if options.only else None
    fx = fixture.Fixture(root, max(counts), env, layout=fixture.layout(options.layout) if options.layout else None)
    start = time.perf_counter()
    fx.build(jobs=2 * cores)
    print(f"fixture: {fx.count} repositories under {root} in {time.perf_counter() - start:.0f}s", file=sys.stderr,
          flush=True)
    results = {}
    for count in counts:
        rows = fx.rows[:count]
        fx.root = os.path.join(root, f"n{count}")
        os.makedirs(fx.root, exist_ok=True)
        modkit = bench.ModkitTool(options.modkit, fx.workspace("modkit", count), jobs)
        others = []
        if options.against:  # an A/B: another modkit binary, interleaved with this one
            others = [bench.ModkitTool(os.path.abspath(options.against), fx.workspace("against", count), jobs)]
            others[0].name = "modkit (against)"
        shared = fx.plain_workspace("git")
        gits = [bench.GitTool(shared, [(repository, module) for module, repository, _ in rows], fx.url_base, parallel)
                for parallel in git_jobs]
        before = load()
        # the clones every operation works on (one run each, reported but not the point here)
        fresh = {tool.name: tool.fresh(env) for tool in [modkit] + others + gits[-1:]}
        print(f"N={count}: fresh sync " + ", ".join(f"{name} {value:.2f}s" for name, value in fresh.items()),
              file=sys.stderr, flush=True)
        peaks = {}
        samples = bench.measure([modkit] + others + gits, options.runs, fx, env, only, peaks=peaks,
                                operations=bench.SCALE_OPERATIONS)
        sampled = {}
        timing.sampling = True
        try:
            for label, method, _ in bench.SCALE_OPERATIONS:
                if only and bench.SHORT[label] not in only:
                    continue
                bench.attempt(modkit, method, env)
                sampled[label] = (timing.last_peak_fds, timing.last_peak_threads, timing.last_peak_children)
        finally:
            timing.sampling = False
        wrong = bench.verify([modkit] + others + gits[:1], fx, env, rows=rows)
        results[count] = dict(samples=samples, peaks=peaks, sampled=sampled, load=f"{before} → {load()}",
                              wrong=wrong, modkit=modkit.name, gits=[git.name for git in gits],
                              against=others[0].name if others else None)
        report(count, results[count], options.runs, cores)
    growth(counts, results)


def floor(samples, gits):
    medians = [(bench.median(samples[name]), name) for name in gits]
    medians = [(value, name) for value, name in medians if value is not None]
    return min(medians) if medians else (None, None)


def report(count, result, runs, cores):
    print(f"\n## N = {count} tiny repositories over file://; median of {runs} runs, {cores} cores, load average "
          f"(1/5/15 min) {result['load']}; git: fastest of {', '.join(result['gits'])}\n")
    print("| operation | modkit | git floor | ratio | ms/module | peak RSS KiB | peak fds | peak threads | children |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, _, _ in bench.SCALE_OPERATIONS:
        samples = result["samples"][label]
        value = bench.median(samples[result["modkit"]])
        if value is None:
            continue
        base, best = floor(samples, result["gits"])
        fds, threads, children = result["sampled"].get(label, (0, 0, 0))
        print(f"| {label} | {value:.3f}s | " + (f"{base:.3f}s ({best.split()[-1]}) | {value / base:.2f}x"
                                                 if base else "n/a | n/a") +
              f" | {1000 * value / count:.3f} | {result['peaks'][label][result['modkit']]} | {fds} | {threads} | "
              f"{children} |")
    if result["against"]:
        print("\nA/B, interleaved: --modkit against --against, medians:")
        for label, _, _ in bench.SCALE_OPERATIONS:
            a = bench.median(result["samples"][label][result["modkit"]])
            b = bench.median(result["samples"][label][result["against"]])
            if a is not None and b is not None:
                print(f"  {label}: {a:.3f}s against {b:.3f}s = {a / b:.2f}x, peak RSS "
                      f"{result['peaks'][label][result['modkit']]} against {result['peaks'][label][result['against']]} KiB")
    print(f"\nverify: {'every clone at its remote' + chr(39) + 's newest commit' if not result['wrong'] else str(result['wrong']) + ' clones wrong'}")
    sys.stdout.flush()


def growth(counts, results):
    """Per operation, how time per module and peak memory grow from one N to the next: linear time keeps the time
    factor near 1 (below 1 when a fixed start-up cost is spread thinner); memory is shown as KiB per added module."""
    if len(counts) < 2:
        return
    print("\n## growth per step of N (time per module: factor against the previous N; RSS: KiB per added module)\n")
    print("| operation | " + " | ".join(f"{a} → {b}" for a, b in zip(counts, counts[1:])) + " |")
    print("|---|" + "---|" * (len(counts) - 1))
    verdicts = []
    for label, _, _ in bench.SCALE_OPERATIONS:
        cells = []
        for small, large in zip(counts, counts[1:]):
            first, second = results[small], results[large]
            a = bench.median(first["samples"][label][first["modkit"]])
            b = bench.median(second["samples"][label][second["modkit"]])
            if a is None or b is None:
                cells.append("n/a")
                continue
            factor = (b / large) / (a / small)
            memory = (second["peaks"][label][second["modkit"]] - first["peaks"][label][first["modkit"]]) / (large - small)
            fds = (second["sampled"].get(label, (0,))[0], first["sampled"].get(label, (0,))[0])
            cells.append(f"time {factor:.2f}x, RSS {memory:+.1f} KiB, fds {fds[1]} → {fds[0]}")
            if factor > 1.25:
                verdicts.append(f"{label}: time per module grew {factor:.2f}x from N={small} to N={large}")
        print(f"| {label} | " + " | ".join(cells) + " |")
    largest = results[counts[-1]]
    for label in ("status", "no-op sync"):
        value = bench.median(largest["samples"][label][largest["modkit"]])
        base, _ = floor(largest["samples"][label], largest["gits"])
        if value is not None and base and value / base > GOAL:
            verdicts.append(f"{label} at N={counts[-1]}: {value / base:.2f}x of git, above the goal of {GOAL}x")
    print("\n" + ("not met: " + "; ".join(verdicts) if verdicts else
                  f"met: every time per module within 1.25x from step to step, status and no-op sync at or below "
                  f"{GOAL}x at N={counts[-1]}"))
