#!/usr/bin/env bash
# Installs the Debian packages portaflow builds and tests with (only the
# missing ones, so a second run costs nothing). Used by demo.sh, test.sh and
# .ci/run; clang with its sanitizer/libFuzzer runtimes and OpenMP library is
# for scripts/fuzz.sh.
set -euo pipefail
packages=(gcc g++ meson ninja-build pkg-config python3 python3-dev python3-venv
          check libsubunit-dev
          ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd mesa-opencl-icd clinfo
          zlib1g-dev
          libboost-graph-dev liblemon-dev libmaxflow-dev
          clang libclang-rt-14-dev libomp-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
