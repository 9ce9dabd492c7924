#!/usr/bin/env bash
# Builds the Check suites once against Check compiled from
# subprojects/check.wrap instead of the system's Check, and runs them: the
# test that the wrap works on a machine without Debian's check package.
#
# 1. The wrap's source tarball is put in subprojects/packagecache/, unless it
#    is there already: Debian's source package of check, fetched with
#    `apt-get source` through a deb-src list made from the system's own apt
#    sources, in a private apt folder (the system's apt setup is untouched;
#    no root needed). Its sha256 must be the wrap's source_hash.
# 2. meson configures ./build-checkfb with --force-fallback-for=check and
#    --wrap-mode=nodownload (so meson itself downloads nothing), CPU engines
#    only (no CUDA, OpenCL, C++ peers or Python), and the script checks that
#    the configured build does use the subproject.
# 3. The CLI and the test executables are built and `meson test` runs them.
#
#   bash scripts/check-fallback.sh [meson test arguments]
# Exit status: 0 every suite passed (or skipped); 1 the build or a suite
# failed; 2 the source tarball could not be obtained or does not match the
# wrap.
set -uo pipefail
cd "$(dirname "$0")/.."
wrap=subprojects/check.wrap
build=build-checkfb

fail() { echo "check-fallback: $1" >&2; exit "${2:-1}"; }
wrap_value() { sed -n "s/^$1 *= *//p" "$wrap" | head -n 1; }

tarball=$(wrap_value source_filename)
want_hash=$(wrap_value source_hash)
[ -n "$tarball" ] || fail "$wrap: no source_filename" 2
[ -n "$want_hash" ] || fail "$wrap: no source_hash" 2
cache=subprojects/packagecache/$tarball
# check_0.15.2.orig.tar.gz: Debian's source package check, upstream 0.15.2.
package=${tarball%%_*}

sha256_of() { sha256sum "$1" | awk '{print $1}'; }

# Debian's source package of $package into the folder $1, through a
# private apt state whose list holds a deb-src line for every deb line of
# the system's sources (one-line .list files and deb822 .sources files).
fetch_debian_source() {
  local apt_dir=$1
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache" "$apt_dir/parts"
  : >"$apt_dir/sources.list"
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$apt_dir/sources.list"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" >"$apt_dir/parts/$(basename "$f")"
  done
  local opts=(-q -o Dir::Etc::SourceList="$apt_dir/sources.list"
              -o Dir::Etc::SourceParts="$apt_dir/parts"
              -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache")
  # A source without a deb-src index makes update complain but not stop
  # the others; whether the package came is judged by apt-get source.
  apt-get "${opts[@]}" update >"$apt_dir/update.log" 2>&1
  (cd "$apt_dir" && apt-get "${opts[@]}" source --download-only "$package") >"$apt_dir/source.log" 2>&1 ||
    { cat "$apt_dir/update.log" "$apt_dir/source.log" >&2
      return 1; }
  [ -f "$apt_dir/$tarball" ] ||
    { echo "apt-get source $package brought no $tarball:" >&2; ls "$apt_dir" >&2; return 1; }
}

if [ -f "$cache" ] && [ "$(sha256_of "$cache")" = "$want_hash" ]; then
  echo "check-fallback: $cache already there"
else
  echo "check-fallback: fetching Debian's source package $package (apt-get source)"
  apt_dir=$(mktemp -d)
  trap 'rm -rf "$apt_dir"' EXIT
  fetch_debian_source "$apt_dir" || fail "could not obtain $tarball through apt-get source $package" 2
  got_hash=$(sha256_of "$apt_dir/$tarball")
  [ "$got_hash" = "$want_hash" ] ||
    fail "$wrap: source_hash is $want_hash but Debian's $tarball has $got_hash (update the wrap)" 2
  mkdir -p subprojects/packagecache
  cp "$apt_dir/$tarball" "$cache.tmp" && mv "$cache.tmp" "$cache" || fail "cannot write $cache" 2
fi

# meson lays the overlay over the tarball once, when it unpacks it: after an
# edit of packagefiles/, unpack and configure again.
overlay=subprojects/packagefiles/$(wrap_value patch_directory)
unpacked=subprojects/$(wrap_value directory)
for f in "$overlay"/*; do
  if [ -d "$unpacked" ] && ! cmp -s "$f" "$unpacked/$(basename "$f")"; then
    echo "check-fallback: $f changed: unpacking $unpacked again"
    rm -rf "$unpacked" "$build"
    break
  fi
done

[ -d /usr/local/cuda/bin ] && export PATH="$PATH:/usr/local/cuda/bin"
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --wrap-mode=nodownload --force-fallback-for=check \
    -Dtests=enabled -Dcuda=disabled -Dopencl=disabled -Dpeers=disabled -Dpython=disabled \
    -Dfuzz=disabled >"$build-setup.log" 2>&1 ||
    { cat "$build-setup.log"; fail "meson setup $build failed"; }
  mv "$build-setup.log" "$build/setup.log"
fi
# The build must link the subproject's Check, not the system's.
meson introspect "$build" --projectinfo | python3 -c '
import json, sys
subprojects = {p["name"]: p["version"] for p in json.load(sys.stdin)["subprojects"]}
sys.exit(0 if "check" in subprojects else 1)' ||
  fail "$build does not use subprojects/check (configured without --force-fallback-for=check? remove $build)"

# Only what the suites run: the test executables, the CLI they call and the
# subproject's self-test of Check.
ninja -C "$build" build.ninja >/dev/null 2>&1
targets=$(cd "$build" && ninja -t targets all |
  sed -nE 's#^(tests/test_[a-z0-9_]*|subprojects/[^/:]*/check-selftest):.*#\1#p' | sort -u)
ninja -C "$build" portaflow $targets >"$build/ninja.log" 2>&1 ||
  { tail -n 40 "$build/ninja.log"; fail "build failed, log $build/ninja.log"; }

export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
meson test -C "$build" --no-rebuild --print-errorlogs --num-processes 2 "$@" >"$build/test.log" 2>&1
status=$?
grep -E '^ *[0-9]+/[0-9]+ ' "$build/test.log" | grep -vE " OK |SKIP" || true
counts=$(grep -E '^(Ok|Fail|Skipped|Timeout):' "$build/test.log" | tr -s ' \n' ' ')
echo "check-fallback: Check $(wrap_value directory | sed 's/^check-//') built from $wrap: $counts"
[ "$status" -eq 0 ] || fail "suites FAILED against the Check fallback, log $build/test.log"
exit 0
