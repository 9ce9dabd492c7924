#!/usr/bin/env bash
# Installs the build in ./build into a temporary directory and builds the
# README's example program against it the way users do, with
# `cc example.c $(pkg-config --cflags --libs portaflow)`, then runs it (and
# a static link from `pkg-config --static`). Exit 0 when both run and print
# the expected flow; anything else is a failure, with the step named.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-install: $*" >&2; exit 1; }

meson install -C "$build" --destdir "$work/root" --quiet >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "meson install failed"; }
pc=$(find "$work/root" -name portaflow.pc | head -n 1)
[ -n "$pc" ] || fail "no portaflow.pc installed"
[ -n "$(find "$work/root" -name 'libportaflow.so.*' | head -n 1)" ] || fail "no shared library installed"
[ -n "$(find "$work/root" -name portaflow.h | head -n 1)" ] || fail "no portaflow.h installed"
export PKG_CONFIG_PATH="$(dirname "$pc")"
export PKG_CONFIG_SYSROOT_DIR="$work/root"   # the .pc names the real prefix

# The C block after the README's "example.c" marker.
awk '/<!-- example.c/ {found = 1; next}
     found && /^```c/ {inside = 1; next}
     inside && /^```/ {exit}
     inside {print}' README.md >"$work/example.c"
[ -s "$work/example.c" ] || fail "README.md has no example.c block"

cc=${CC:-cc}
# shellcheck disable=SC2046
$cc -o "$work/example" "$work/example.c" $(pkg-config --cflags --libs portaflow) ||
  fail "the example does not build against the shared library"
libdir=$(dirname "$(find "$work/root" -name 'libportaflow.so.*' | head -n 1)")
out=$(LD_LIBRARY_PATH="$libdir" "$work/example") || fail "the example failed: $out"
echo "$out" | grep -q "^max flow 5 " || fail "unexpected output: $out"
# shellcheck disable=SC2046
$cc -o "$work/example-static" "$work/example.c" $(pkg-config --cflags portaflow) \
  "$libdir/libportaflow.a" $(pkg-config --static --libs-only-other --libs-only-l portaflow | sed 's/-lportaflow//') ||
  fail "the example does not link statically with pkg-config --static"
out=$("$work/example-static") || fail "the static example failed: $out"
echo "$out" | grep -q "^max flow 5 " || fail "unexpected output (static): $out"
echo "check-install: shared and static example builds run: $out"
