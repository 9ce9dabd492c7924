#!/usr/bin/env bash
# Run ON the GPU machine at the start of every command (docs/GPU_MACHINE.md): unpacks
# the carried packages (ICD loader, CL headers, Check, pkg-config, peers),
# registers NVIDIA's OpenCL driver with the loader, and builds portaflow with
# every backend into build-gpu.
set -euo pipefail
cd "$(dirname "$0")/../.."
for deb in .deps/*.deb; do dpkg -x "$deb" /; done
ldconfig
mkdir -p /etc/OpenCL/vendors
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
# Debian's pkg-config lives under /usr/bin; its .pc files under the multiarch dir.
export PKG_CONFIG_PATH=/usr/lib/x86_64-linux-gnu/pkgconfig:/usr/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
clinfo -l || true
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
if [ ! -f build-gpu/build.ninja ]; then
  # PF_GPU_MESON_ARGS lets a run leave a backend out (e.g. -Dopencl=disabled).
  meson setup build-gpu -Dcuda=enabled -Dopencl=enabled -Dopenmp=enabled ${PF_GPU_MESON_ARGS:-} >/dev/null
fi
ninja -C build-gpu >/dev/null
./build-gpu/portaflow backends
