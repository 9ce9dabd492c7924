#!/usr/bin/env bash
# Configures (once) and builds portaflow in ./build with every backend whose
# toolchain is present: OpenMP, OpenCL (ICD loader), CUDA (nvcc, if found).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /usr/local/cuda/bin ] && export PATH="$PATH:/usr/local/cuda/bin"
if [ ! -f build/build.ninja ]; then
  meson setup build "$@"
fi
ninja -C build
