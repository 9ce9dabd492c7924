#!/usr/bin/env bash
# Builds the benchmark instances (deterministic seeds) into bench/instances/
# with `portaflow gen`, skipping files already there. Usage:
#   bench/instances.sh PORTAFLOW_BINARY [small|device|all]
# small: quick ones; medium / large: the DEVICE.md reference instances split
# by size; device: all six of them; all: the whole issue-6 suite.
set -euo pipefail
bin=$1
set_name=${2:-device}
dir="$(dirname "$0")/instances"
mkdir -p "$dir"
gen() { # NAME ARGS...
  local name=$1; shift
  [ -s "$dir/$name.max" ] || "$bin" gen "$@" --seed 1 -o "$dir/$name.max"
  echo "$dir/$name.max"
}
case $set_name in
small)
  gen rmf_24x192 rmf 24 192 --c1 1 --c2 10000
  gen rlg_512x1024 rlg 512 1024 --cap 10000 ;;
medium)
  gen rmf_24x192 rmf 24 192 --c1 1 --c2 10000
  gen rmf_64x64 rmf 64 64 --c1 1 --c2 10000
  gen rlg_512x1024 rlg 512 1024 --cap 10000
  gen rlg_1024x1024 rlg 1024 1024 --cap 10000 ;;
large)
  gen rmf_128x128 rmf 128 128 --c1 1 --c2 10000
  gen rlg_1024x1536 rlg 1024 1536 --cap 10000 ;;
device|all)
  gen rmf_24x192 rmf 24 192 --c1 1 --c2 10000
  gen rmf_64x64 rmf 64 64 --c1 1 --c2 10000
  gen rmf_128x128 rmf 128 128 --c1 1 --c2 10000
  gen rlg_512x1024 rlg 512 1024 --cap 10000
  gen rlg_1024x1024 rlg 1024 1024 --cap 10000
  gen rlg_1024x1536 rlg 1024 1536 --cap 10000
  if [ "$set_name" = all ]; then
    gen ac_4000 ac 4000 --cap 10000
    gen ak_20000 ak 20000
    gen grid2d_2048 grid2d 2048 2048 --conn 4 --cap 100
    gen grid3d_128 grid3d 128 128 128 --conn 6 --cap 100
  fi ;;
*) echo "unknown set $set_name" >&2; exit 1 ;;
esac
