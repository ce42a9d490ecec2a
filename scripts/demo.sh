#!/usr/bin/env bash
# Builds modkit, creates a sample workspace of real git repositories under a temporary directory,
# and runs modkit on it, showing what a new user sees.
#   scripts/demo.sh [DIR]    (DIR defaults to a new temporary directory; it is kept for you to explore)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/lib/deps.sh"
. "$repo/scripts/lib/sample-workspace.sh"
modkit_require_swift
modkit_ensure_packages

(cd "$repo" && swift build -q)
modkit="$(cd "$repo" && swift build --show-bin-path)/modkit"

root="${1:-$(mktemp -d "${TMPDIR:-/tmp}/modkit-demo.XXXXXX")}"
mkdir -p "$root"
# The sample repositories are made with a throwaway git identity, never the user's config.
export GIT_CONFIG_GLOBAL="$root/gitconfig" GIT_CONFIG_NOSYSTEM=1
git config --file "$GIT_CONFIG_GLOBAL" user.name "modkit demo"
git config --file "$GIT_CONFIG_GLOBAL" user.email "demo@example.com"

make_sample_workspace "$root"
ws="$root/OneForAll"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
run() { step "modkit $*"; (cd "$ws" && "$modkit" "$@") || echo "(exit $?)"; }

echo "Sample workspace: $ws"
run list
run sync
run graph
run status -v
run tag 1.0.0 --push
run snapshots

# Local work: an uncommitted edit and an unpushed commit. sync never destroys either.
echo "// work in progress" >> "$ws/Libs/QCloudCore/Sources/QCloudCore/QCloudCore.swift"
(cd "$ws/Libs/QCloudCOSXML" && echo "- Upload resume." >> CHANGELOG.md && git commit -qam "feat: resume uploads")
run status
run sync
run forall -c 'git log -1 --format="%h %s"'
# Put the edit away and publish the commit, as a developer would before a release.
git -C "$ws/Libs/QCloudCore" checkout -q -- .
git -C "$ws/Libs/QCloudCOSXML" push -q origin develop

run pin --check
run release 2024.6 --plan
step "modkit release 2024.6 --dry-run   (first lines)"
(cd "$ws" && "$modkit" release 2024.6 --dry-run 2>&1 | head -40) || true
run release 2024.6 --yes
run diff 1.0.0 2024.6
run pin --check
run guard --check
