#!/usr/bin/env bash
# Run HERE (a machine with Debian's registry), before a GPU run: downloads the
# packages the GPU machine lacks (it reaches no registry) into .deps/, which
# git ignores and the run carries along.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .deps && cd .deps
apt-get download ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers clinfo \
  check libsubunit0 libsubunit-dev pkgconf pkgconf-bin libpkgconf3 pkg-config \
  liblemon-dev liblemon1.3.1 libmaxflow-dev libmaxflow0 \
  libboost1.74-dev libboost-graph1.74-dev
