#!/usr/bin/env bash
# Installs what is missing, builds modkit and its tests, and runs the whole test suite.
#   scripts/test.sh                 every test
#   scripts/test.sh --filter NAME   only matching tests (passed on to swift test)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/deps.sh
modkit_require_swift
# Tests evaluate podspecs with Ruby, render graphs with dot, check completion scripts in zsh and fish, and start sshd, ssh-agent and an https server on 127.0.0.1.
# The guard's incremental-build test runs the compiler under libfaketime (faketime) to hit the same-second case on purpose.
# The git-exact tests compare modkit with git on Git LFS repositories (git-lfs). The develop tests read the Xcode workspaces it writes with Python's XML parser.
# shellcheck disable=SC2086
modkit_ensure_packages ruby:ruby dot:graphviz zsh:zsh fish:fish faketime:faketime git-lfs:git-lfs python3:python3 $MODKIT_TRANSPORT_TEST_PACKAGES

# west and vcstool re-read exported manifests in the end-to-end tests (test tooling only); without PyPI those checks are skipped.
tools=.build/test-tools/venv
if [ ! -x "$tools/bin/west" ] || [ ! -x "$tools/bin/vcs" ]; then
    { python3 -m venv "$tools" && "$tools/bin/pip" install -q --disable-pip-version-check west vcstool; } >/dev/null 2>&1 \
        || echo "==> could not pip-install west and vcstool; the tests that re-read exports with them are skipped" >&2
fi

swift build --build-tests
log="$(mktemp "${TMPDIR:-/tmp}/modkit-test.XXXXXX")"
scratch=
trap 'rm -f "$log"; [ -z "$scratch" ] || rm -rf "$scratch"' EXIT
# The tests build thousands of small repositories and work trees in temporary directories. On a RAM file system
# (Linux's /dev/shm, when it has room) that file work costs a fraction of what a journaled disk charges: the
# kill-at-random tests of 5,000-file moves take a third of the CPU time. MODKIT_TEST_TMPDIR picks the place instead.
if [ -n "${MODKIT_TEST_TMPDIR:-}" ]; then
    export TMPDIR="$MODKIT_TEST_TMPDIR"
elif [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -ge $((4 * 1024 * 1024)) ] 2>/dev/null; then
    scratch="$(mktemp -d /dev/shm/modkit-test.XXXXXX)"
    chmod 755 "$scratch"   # as /tmp lets them: some tests run modkit as another user (nobody) in their sandbox
    export TMPDIR="$scratch"
fi
set +e
# The test bundle of a Linux build is an executable that swift test runs with `--testing-library swift-testing`.
bundle="$(swift build --show-bin-path)/modkitPackageTests.xctest"
if [ $# -gt 0 ] || [ "$(uname -s)" != Linux ] || [ ! -f "$bundle" ] || [ ! -x "$bundle" ]; then
    swift test --skip-build "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
else
    # Two test processes side by side: the end-to-end suites named S… (sync, snapshot, status: a third of the time)
    # in one, everything else in the other. Many tests wait on purpose (a compiler in the same second, a stalled
    # server's timeout, a process killed at a random moment) and hold one of the 2 threads of their process's pool
    # while they wait; a second process keeps the cores busy meanwhile. They run the bundle itself: two `swift test`
    # would queue on SwiftPM's lock of .build.
    log2="$(mktemp "${TMPDIR:-/tmp}/modkit-test.XXXXXX")"
    other=
    # An interrupted run stops the background process too (bash starts it ignoring SIGINT) before its TMPDIR goes.
    trap '[ -z "$other" ] || { kill "$other" 2>/dev/null; wait "$other" 2>/dev/null; }; rm -f "$log" "$log2"; [ -z "$scratch" ] || rm -rf "$scratch"' EXIT
    trap 'exit 130' INT TERM
    NO_COLOR=1 "$bundle" --testing-library swift-testing --filter 'EndToEndTests\.S' >"$log2" 2>&1 &
    other=$!
    NO_COLOR=1 "$bundle" --testing-library swift-testing --skip 'EndToEndTests\.S' 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    wait "$other"
    status2=$?
    other=
    cat "$log2"
    cat "$log2" >>"$log"
    [ "$status" -ne 0 ] || status=$status2
fi
set -e
# One plain closing line: the Swift Testing totals of both processes (XCTest has no tests here).
total=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .*/\1/p' "$log" | awk '{ sum += $1 } END { if (NR) print sum }')
failed=$(grep -c '^✘ Test .*() failed' "$log" || true)
if [ -n "$total" ]; then
    echo "tests: $((total - failed)) passed, $failed failed"
fi
exit "$status"
