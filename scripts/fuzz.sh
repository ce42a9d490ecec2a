#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (with AddressSanitizer) and runs each for SECONDS (default 60) from its seed corpus.
# Exits non-zero on any finding (a crash, a leak, an input over the time limit); crashing inputs are kept in
# Fuzz/Findings/<target>/ to add to Fuzz/Regressions/<target>/ once fixed (the normal test suite runs every regression input).
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/lib/deps.sh"
modkit_require_swift
modkit_ensure_packages

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzYAML FuzzManifest FuzzRuby FuzzSwift FuzzJSON FuzzXML FuzzIndex FuzzPbxproj)

cd "$repo/Fuzz"
# Swift's own crash backtracer reads the stack in ways AddressSanitizer reports; libFuzzer prints the stack instead.
export SWIFT_BACKTRACE=enable=no
flags=(-c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
start=$(date +%s)
build_log="$(mktemp "${TMPDIR:-/tmp}/modkit-fuzz-build.XXXXXX")"
if ! swift build "${flags[@]}" >"$build_log" 2>&1; then
    cat "$build_log"
    exit 1
fi
rm -f "$build_log"
echo "fuzz: built the fuzz targets in $(( $(date +%s) - start )) s"
bin="$(swift build "${flags[@]}" --show-bin-path)"

# One target's run: its own scratch corpus, findings kept, one line of outcome; the exit status says whether it found something.
fuzz_target() {
    local target=$1 work findings pattern status runs
    work="$(mktemp -d "${TMPDIR:-/tmp}/modkit-fuzz-$target.XXXXXX")"
    findings="$repo/Fuzz/Findings/$target"
    mkdir -p "$findings"
    # New inputs go to a scratch corpus; the committed seeds stay as they are.
    cp "$repo/Fuzz/Corpus/$target"/* "$work/" 2>/dev/null || true
    # The built-in templates' files of the target's kind are seeds too.
    case "$target" in
        FuzzYAML) pattern='template.yml' ;;
        FuzzRuby) pattern='*.podspec' ;;
        FuzzSwift) pattern='Package.swift' ;;
        *) pattern= ;;
    esac
    if [ -n "$pattern" ]; then
        find "$repo/Templates" -name "$pattern" -type f | while read -r seed; do
            relative="${seed#"$repo/Templates/"}"
            cp "$seed" "$work/template-${relative//\//-}"
        done
    fi
    # Small regression inputs seed the run too; the large ones (hangs on big files) are for the test suite.
    [ -d "$repo/Fuzz/Regressions/$target" ] && find "$repo/Fuzz/Regressions/$target" -type f -size -8k -exec cp {} "$work/" \;
    set +e
    "$bin/$target" "$work" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -artifact_prefix="$findings/" -print_final_stats=1 >"$work.log" 2>&1
    status=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work.log" | tail -1)
    if [ "$status" -ne 0 ]; then
        echo "fuzz: $target FOUND A PROBLEM after ${runs:-?} runs (exit $status); inputs in $findings"
        grep -E "ERROR|SUMMARY|Fatal error|==[0-9]+==" "$work.log" | head -20 || true
    else
        echo "fuzz: $target: ${runs:-?} runs in ${seconds} s, no finding"
        rmdir "$findings" 2>/dev/null || true
    fi
    rm -rf "$work" "$work.log"
    return "$status"
}

# Each target is single-threaded: run as many at once as there are cores, so every target still gets its SECONDS.
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
failed=()
pids=()
names=()
wait_oldest() {
    if ! wait "${pids[0]}"; then failed+=("${names[0]}"); fi
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
}
for target in "${targets[@]}"; do
    [ ${#pids[@]} -lt "$jobs" ] || wait_oldest
    fuzz_target "$target" &
    pids+=($!)
    names+=("$target")
done
while [ ${#pids[@]} -gt 0 ]; do wait_oldest; done
rmdir "$repo/Fuzz/Findings" 2>/dev/null || true
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in ${failed[*]}"
    exit 1
fi
echo "fuzz: every target ran ${seconds} s with no finding"
