#!/usr/bin/env bash
# Builds the benchmark instances (deterministic: seed 1) into bench/instances/
# with `portaflow gen`, skipping files already there, and prints their paths,
# one a line. Usage:
#   bench/instances.sh PORTAFLOW_BINARY [SET|NAME]...      (default: device)
#   bench/instances.sh --list [SET|NAME]...                names only, no files
# Sets: small: quick ones; medium / large: the docs/GPU_MACHINE.md reference instances
# split by size; device: all six of them; extra: AC, AK and the two grids;
# all: the whole issue-6 suite (device + extra). A NAME is one instance of
# the list below (rmf_64x64, grid3d_128, ...); sets and names mix freely,
# separated by spaces or commas; each instance is printed once.
set -euo pipefail
dir="$(dirname "$0")/instances"

# name|gen arguments, in the order of the issue.
catalog="rmf_24x192|rmf 24 192 --c1 1 --c2 10000
rmf_64x64|rmf 64 64 --c1 1 --c2 10000
rmf_128x128|rmf 128 128 --c1 1 --c2 10000
rlg_512x1024|rlg 512 1024 --cap 10000
rlg_1024x1024|rlg 1024 1024 --cap 10000
rlg_1024x1536|rlg 1024 1536 --cap 10000
ac_4000|ac 4000 --cap 10000
ak_20000|ak 20000
grid2d_2048|grid2d 2048 2048 --conn 4 --cap 100
grid3d_128|grid3d 128 128 128 --conn 6 --cap 100"

members() { # SET|NAME: the instance names it stands for
  case $1 in
  small) echo rmf_24x192 rlg_512x1024 ;;
  medium) echo rmf_24x192 rmf_64x64 rlg_512x1024 rlg_1024x1024 ;;
  large) echo rmf_128x128 rlg_1024x1536 ;;
  device) echo rmf_24x192 rmf_64x64 rmf_128x128 rlg_512x1024 rlg_1024x1024 rlg_1024x1536 ;;
  extra) echo ac_4000 ak_20000 grid2d_2048 grid3d_128 ;;
  all) members device; members extra ;;
  *)
    if ! grep -q "^$1|" <<<"$catalog"; then
      echo "instances.sh: unknown set or instance '$1' (sets: small medium large device extra all;" \
        "instances: $(cut -d'|' -f1 <<<"$catalog" | tr '\n' ' '))" >&2
      return 1
    fi
    echo "$1" ;;
  esac
}

list=0
if [ "${1:-}" = --list ]; then
  list=1
else
  bin=${1:?usage: bench/instances.sh PORTAFLOW_BINARY [SET|NAME]...}
fi
shift
[ $# -gt 0 ] || set -- device
names=()
for arg in "$@"; do
  for word in ${arg//,/ }; do
    found=$(members "$word") || exit 1
    for name in $found; do
      [[ " ${names[*]} " == *" $name "* ]] || names+=("$name")
    done
  done
done

mkdir -p "$dir"
for name in "${names[@]}"; do
  if [ "$list" = 1 ]; then
    echo "$name"
    continue
  fi
  file="$dir/$name.max"
  if [ ! -s "$file" ]; then
    read -r -a gen_args <<<"$(grep "^$name|" <<<"$catalog" | cut -d'|' -f2)"
    # Through a temporary name: an interrupted run leaves no half file.
    "$bin" gen "${gen_args[@]}" --seed 1 -o "$file.tmp" >&2
    mv "$file.tmp" "$file"
  fi
  echo "$file"
done
