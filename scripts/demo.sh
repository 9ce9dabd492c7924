#!/usr/bin/env bash
# From a fresh clone: install dependencies, build, and solve the built-in
# default instance on every available backend (each answer verified).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
./build/portaflow backends
echo
./build/portaflow demo
