#!/usr/bin/env bash
# Install the Debian packages ringsweep's build, tests, demo and benchmarks need, and only those
# that are missing: a no-op (one line) when everything is there. Runs apt-get as root, or through
# sudo otherwise. Called by scripts/demo.sh, scripts/test.sh and .ci/run; safe to run by hand.
#
#   scripts/setup.sh          # everything (tests, benchmarks, compiler cache)
#   scripts/setup.sh demo     # only what the demo needs
#
# nvcc is never installed: without it the SIMT backend builds and tests everything on the CPU.
# RINGSWEEP_SKIP_SETUP=1 skips the whole step (machines managed some other way).
set -euo pipefail

if [[ ${RINGSWEEP_SKIP_SETUP:-0} == 1 ]]; then
  exit 0
fi

what="${1:-all}"
packages=(cmake ninja-build g++ libboost-context-dev)
case "${what}" in
  demo) ;;
  all) packages+=(catch2 libbenchmark-dev python3 ccache libopenmpi-dev openmpi-bin) ;;
  *)
    echo "setup: unknown set '${what}' (all or demo)" >&2
    exit 2
    ;;
esac

if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: not a Debian-based machine; install by hand: ${packages[*]}" >&2
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "${p}" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("${p}")
  fi
done

# nvdisasm for the instruction budget test (sass_budget: SASS of the spill gate's cubins). CUDA 13's
# toolkit here ships none; PyPI's nvidia-cuda-nvdisasm does. Only with nvcc (no nvcc: no cubins), and
# never fatal: without it the test is skipped.
nvdisasm_setup() {
  [[ ${what} == all ]] || return 0
  command -v nvcc >/dev/null 2>&1 || return 0
  command -v nvdisasm >/dev/null 2>&1 && return 0
  [[ -x "$(dirname "$(readlink -f "$(command -v nvcc)")")/nvdisasm" ]] && return 0
  command -v python3 >/dev/null 2>&1 || return 0
  if python3 -c 'import nvidia, os, sys; sys.exit(0 if any(os.path.exists(os.path.join(p, "cu13", "bin", "nvdisasm")) for p in nvidia.__path__) else 1)' 2>/dev/null; then
    return 0
  fi
  echo "setup: installing nvdisasm (pip: nvidia-cuda-nvdisasm)"
  python3 -m pip install -q nvidia-cuda-nvdisasm >/dev/null 2>&1 ||
    python3 -m pip install -q --break-system-packages nvidia-cuda-nvdisasm >/dev/null 2>&1 ||
    echo "setup: could not install nvidia-cuda-nvdisasm; the sass_budget test will be skipped" >&2
}

if ((${#missing[@]} == 0)); then
  echo "setup: all needed packages are installed"
  nvdisasm_setup
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup: missing packages ${missing[*]}, and not root and no sudo: install them as root" >&2
    exit 1
  fi
  sudo=(sudo)
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: installed ${missing[*]}"
nvdisasm_setup
