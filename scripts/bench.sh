#!/usr/bin/env bash
# Benchmarks modkit against plain git (xargs -P) on a fixture of N module repositories served as
# local bare remotes, and `pin --check` over 1,000 spec files. Prints medians and ratios.
#   scripts/bench.sh [N] [--runs R] [--peers] [--debug]
#     N         number of module repositories (default 100)
#     --runs R  measured runs per operation (default 5)
#     --peers   also measure west, vcstool, tsrc, gita (pip, in a throwaway venv) and myrepos (Debian)
#     --debug   use the debug build instead of building a release binary
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/lib/deps.sh"
modkit_require_swift
modkit_ensure_packages

config=release
args=()
for argument in "$@"; do
    case "$argument" in
        --debug) config=debug ;;
        *) args+=("$argument") ;;
    esac
done
# The binary scripts/install.sh ships: release, with the Swift runtime linked in (it starts faster).
if [ "$config" = release ]; then
    (cd "$repo" && { swift build -c release --product modkit --static-swift-stdlib -q 2>/dev/null || swift build -c release --product modkit -q; })
else
    (cd "$repo" && swift build -q)
fi
modkit="$(cd "$repo" && swift build -c "$config" --show-bin-path)/modkit"
exec python3 "$repo/scripts/bench/bench.py" --modkit "$modkit" "${args[@]}"
