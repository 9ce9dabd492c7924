#!/usr/bin/env bash
# Installs the build in ./build into a temporary directory and builds the
# README's example program against it the way users do, with
# `cc example.c $(pkg-config --cflags --libs portaflow)`, then runs it (and
# a static link from `pkg-config --static`); builds and runs a program that
# uses only <portaflow.h> with NULL options (it must print nothing on
# stderr); and checks that libportaflow.so exports exactly the functions
# portaflow.h marks PF_API. Exit 0 when all of that holds; anything else is
# a failure, with the step named.
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

# A program that includes nothing but <portaflow.h> and passes NULL options
# everywhere: the defaults, and the library prints nothing itself.
cat >"$work/null_options.c" <<'EOF'
#include <portaflow.h>
#include <stdio.h>

int main(void)
{
    pf_status st;
    pf_network *net = pf_network_new(3, 0, 2, &st);
    if (!net || pf_network_add_arc(net, 0, 1, 3, &st) || pf_network_add_arc(net, 1, 2, 4, &st))
        return 1;
    pf_solution sol;
    if (pf_solve(net, NULL, &sol, &st) != PF_OK)
        return 2;
    pf_wgraph *g = pf_wgraph_new(2, &st);
    pf_apsp_result res;
    if (!g || pf_wgraph_add_arc(g, 0, 1, 9, &st) || pf_apsp(g, NULL, &res, &st) != PF_OK)
        return 3;
    printf("value %lld distance %d api %d\n", (long long)sol.value, ((int *)res.dist)[1],
           PORTAFLOW_API_VERSION);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
    pf_solution_free(&sol);
    pf_network_free(net);
    return 0;
}
EOF
# shellcheck disable=SC2046
$cc -o "$work/null_options" "$work/null_options.c" $(pkg-config --cflags --libs portaflow) ||
  fail "a program using only portaflow.h does not build"
LD_LIBRARY_PATH="$libdir" "$work/null_options" >"$work/null.out" 2>"$work/null.err" ||
  fail "the NULL-options program failed: $(cat "$work/null.out" "$work/null.err")"
grep -q "^value 3 distance 9 api " "$work/null.out" || fail "NULL options: $(cat "$work/null.out")"
[ ! -s "$work/null.err" ] || fail "the library printed on stderr: $(cat "$work/null.err")"

# The shared library exports the public API (PF_API in portaflow.h) and
# nothing else.
header=$(find "$work/root" -name portaflow.h | head -n 1)
so=$(find "$work/root" -name 'libportaflow.so.*' -type f | head -n 1)
sed -n 's/^PF_API[^(]*[ *]\(pf_[a-z0-9_]*\)(.*/\1/p' "$header" | sort -u >"$work/public"
[ -s "$work/public" ] || fail "no PF_API functions found in portaflow.h"
nm -D --defined-only "$so" | awk '{print $NF}' | sort -u >"$work/exported"
extra=$(comm -23 "$work/exported" "$work/public")
[ -z "$extra" ] || fail "libportaflow.so exports symbols outside the public API: $(echo $extra)"
missing=$(comm -13 "$work/exported" "$work/public")
[ -z "$missing" ] || fail "public functions not exported: $(echo $missing)"
echo "check-install: shared and static example builds run: $out"
echo "check-install: NULL options run silently; $(wc -l <"$work/exported") symbols exported, all public"
