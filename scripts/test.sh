#!/usr/bin/env bash
# Installs what is missing, builds modkit and its tests, and runs the whole test suite.
#   scripts/test.sh                 every test
#   scripts/test.sh --filter NAME   only matching tests (passed on to swift test)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/deps.sh
modkit_require_swift
modkit_ensure_packages ruby:ruby dot:graphviz

swift build --build-tests
swift test --skip-build "$@"
