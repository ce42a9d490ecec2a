#!/usr/bin/env bash
# Builds modkit against a newer libgit2's headers than the one installed: Debian's libgit2 1.8 from
# bookworm-backports, the nearest to Homebrew's 1.9 that our macOS users build with (libgit2 1.8 moved functions
# between headers, and modkit did not compile there until stop 40). The packages are downloaded and unpacked under
# a directory of their own (default ~/.cache/modkit-libgit2-1.8): the system's packages and apt sources stay as they
# are. The link still finds the installed library, so this checks that the code compiles, not how it runs (the whole
# suite passed on 1.8.4 with it installed: README, "Installing").
#
#   scripts/check-newer-libgit2.sh [DIR]
#
# Exits 1 when the build fails; says so and exits 0 where the packages cannot be had (not Debian 12, no apt, no
# network to the Debian mirror).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/modkit-libgit2-1.8}"
skip() { echo "==> libgit2 1.8 build check skipped: $*" >&2; exit 0; }

command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 || skip "no apt-get"
grep -q '^VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null || skip "not Debian 12 (bookworm)"

root="$dir/root"
pc="$root/usr/lib/x86_64-linux-gnu/pkgconfig"
if [ ! -f "$pc/libgit2.pc" ]; then
    mkdir -p "$dir/lists/partial" "$dir/debs"
    # apt reads only this list and keeps what it fetches here
    echo "deb http://deb.debian.org/debian bookworm-backports main" > "$dir/sources.list"
    apt=(-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=/nonexistent" -o "Dir::State::Lists=$dir/lists"
         -o "Dir::Cache::archives=$dir/debs" -o "APT::Sandbox::User=root")
    apt-get -qq "${apt[@]}" update >/dev/null 2>&1 || skip "cannot reach bookworm-backports"
    (cd "$dir/debs" && apt-get -qq "${apt[@]}" download libgit2-dev libgit2-1.8 >/dev/null 2>&1) || skip "cannot download libgit2 1.8"
    rm -rf "$root"
    for deb in "$dir"/debs/libgit2-dev_1.8*.deb "$dir"/debs/libgit2-1.8_*.deb; do dpkg -x "$deb" "$root"; done
    # the package names /usr; here it lives under $root
    sed -i "s#^prefix=.*#prefix=\"$root/usr\"#; s#^libdir=.*#libdir=\"$root/usr/lib/x86_64-linux-gnu\"#; s#^includedir=.*#includedir=\"$root/usr/include\"#" \
        "$pc/libgit2.pc"
fi
version="$(PKG_CONFIG_PATH="$pc" pkg-config --modversion libgit2)"
case "$version" in 1.8.*) ;; *) echo "==> expected libgit2 1.8 under $root, found '$version'" >&2; exit 1 ;; esac
echo "==> building against libgit2 $version's headers" >&2
# from scratch: an incremental build does not see a change to the C shim of a system library (Sources/CLibgit2)
rm -rf "$dir/build"
PKG_CONFIG_PATH="$pc" swift build --scratch-path "$dir/build" --product modkit -q
echo "==> modkit compiles against libgit2 $version" >&2
