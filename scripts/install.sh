#!/usr/bin/env bash
# Builds modkit and installs it with its built-in templates:
#   PREFIX/bin/modkit
#   PREFIX/share/modkit/Templates/   (found by the binary relative to itself; MODKIT_TEMPLATES overrides)
#
#   scripts/install.sh PREFIX            release build (static Swift runtime where the toolchain has one)
#   scripts/install.sh PREFIX --debug    reuse (or make) the debug build: quick, for tests
#   scripts/install.sh PREFIX --binary B install the already built binary B (runs no swift at all)
set -euo pipefail
usage() { echo "usage: scripts/install.sh PREFIX [--debug | --binary PATH]" >&2; exit 2; }
[ $# -ge 1 ] || usage
prefix=$1; shift
configuration=release
binary=
while [ $# -gt 0 ]; do
  case $1 in
    --debug) configuration=debug ;;
    --binary) [ $# -ge 2 ] || usage; binary=$2; shift ;;
    *) usage ;;
  esac
  shift
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ -n "$binary" ]; then
  [ -x "$binary" ] || { echo "install.sh: $binary is not an executable" >&2; exit 2; }
  configuration="prebuilt $binary"
elif [ "$configuration" = release ]; then
  # A self-contained binary where the toolchain supports it; else the ordinary release build.
  swift build -c release --product modkit --static-swift-stdlib || swift build -c release --product modkit
  binary=$(swift build -c release --show-bin-path)/modkit
else
  [ -x .build/debug/modkit ] || swift build --product modkit
  binary=.build/debug/modkit
fi

mkdir -p "$prefix/bin" "$prefix/share/modkit"
install -m 0755 "$binary" "$prefix/bin/modkit.tmp.$$"
mv -f "$prefix/bin/modkit.tmp.$$" "$prefix/bin/modkit"
# Replace the templates as a whole, so a template removed from modkit does not linger.
rm -rf "$prefix/share/modkit/Templates.tmp.$$"
cp -R Templates "$prefix/share/modkit/Templates.tmp.$$"
rm -rf "$prefix/share/modkit/Templates"
mv "$prefix/share/modkit/Templates.tmp.$$" "$prefix/share/modkit/Templates"
echo "installed $prefix/bin/modkit ($configuration) and $prefix/share/modkit/Templates"
