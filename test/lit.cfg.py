# -*- Python -*-
import os
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "PERFDOJO"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".dojo", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.perfdojo_obj_root, "test")

config.substitutions.append(("%kernels", os.path.join(config.perfdojo_src_root, "kernels")))
# Source and build roots, for tests on checked-in generated files
# (test/Docs/moves-reference.test).
config.substitutions.append(("%perfdojo_src", config.perfdojo_src_root))
config.substitutions.append(("%perfdojo_obj", config.perfdojo_obj_root))

# The plugin for the stock mlir-opt (docs/embedding.md) and that driver
# itself, named by path: a PATH lookup could find another mlir-opt.
config.substitutions.append(
    ("%dojo_plugin", os.path.join(config.perfdojo_obj_root, "lib", "PerfDojoPlugin.so")))
config.substitutions.append(
    ("%stock_mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools = ["perfdojo-opt", "perfdojo-translate", "perfdojo-run", "perfdojo-fuzz-moves",
         "perfdojo-fuzz-kernels", "perfdojo-search", "perfdojo-gpu-launch",
         "perfdojo-tune"]
# The recording stand-in for the CUDA driver (unittests/GpuRuntime/
# FakeCudaDriver.cpp): test/GpuRuntime runs the launcher on it. It checks
# the host runtime's plumbing; no kernel runs.
config.substitutions.append(
    ("%fake-cuda", os.path.join(config.perfdojo_obj_root, "lib", "libperfdojo-fake-cuda.so")))
# The ONNX importer and its node-test runner exist only in builds with
# PERFDOJO_ENABLE_ONNX (`REQUIRES: onnx`); ONNX's node tests come from
# Debian's libonnx-testdata (`onnx-testdata`, `%onnx_node_tests`).
if getattr(config, "perfdojo_enable_onnx", False):
    config.available_features.add("onnx")
    tools += ["perfdojo-import-onnx", "perfdojo-onnx-test"]
if subprocess.run(["/usr/bin/python3", "-c", "import onnx.helper"],
                  capture_output=True).returncode == 0:
    config.available_features.add("python-onnx")
onnx_node_tests = "/usr/share/libonnx-testdata/data/node"
if os.path.isdir(onnx_node_tests):
    config.available_features.add("onnx-testdata")
    config.substitutions.append(("%onnx_node_tests", onnx_node_tests))

# The libtorch baseline (perfdojo-run-torch) exists only in builds with
# PERFDOJO_ENABLE_TORCH; its tests are `REQUIRES: torch`.
if getattr(config, "perfdojo_enable_torch", False):
    config.available_features.add("torch")
    tools += ["perfdojo-run-torch", "perfdojo-train"]
    # The all-MiniLM-L6-v2 files (scripts/install-deps.sh puts them in the
    # project's venv): tests of the language-model embedding.
    minilm_dir = os.environ.get("PERFDOJO_MINILM_DIR",
                                getattr(config, "perfdojo_minilm_dir", ""))
    if minilm_dir and os.path.isfile(os.path.join(minilm_dir,
                                                  "model.safetensors")):
        config.available_features.add("minilm")
    llvm_config.with_system_environment(["PERFDOJO_MINILM_DIR"])
# The worker's full path, for tests that wrap it (test/Search/isolation.test).
config.substitutions.append(
    ("%search-worker", os.path.join(config.perfdojo_tools_dir, "perfdojo-run")))
llvm_config.add_tool_substitutions(tools, [config.perfdojo_tools_dir])

# Ahead-of-time compilation (test/Target/LLVM): a host C compiler and the
# OpenMP runtime for C programs calling emitted objects, and per cross target
# a C cross compiler, its sysroot and qemu-user. Features: `host-cc`,
# `libomp`, `qemu-aarch64`, `qemu-riscv64`; tests needing them report
# UNSUPPORTED where they are missing (scripts/install-deps.sh installs them).
import shutil
import sys

config.substitutions.append(
    ("%python", "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable))
# PyTorch in Debian's Python (python3-torch), for the scripts that judge GPU
# runs against it (feature `python-torch`).
if subprocess.run(["/usr/bin/python3", "-c", "import torch"],
                  stdout=subprocess.DEVNULL,
                  stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("python-torch")
# A plain C++ compiler for scripts/build-gpu-launcher.sh (feature `host-cxx`).
host_cxx = shutil.which("c++")
if host_cxx:
    config.available_features.add("host-cxx")
    config.substitutions.append(("%host-cxx", host_cxx))
host_cc = shutil.which("clang-22") or shutil.which("cc")
if host_cc:
    config.available_features.add("host-cc")
    config.substitutions.append(("%host-cc", host_cc))
# Upstream's JIT runner and its printing library (mlir-22-tools,
# libmlir-22-dev): the embedding test runs a module lowered both ways.
runner_libs = [os.path.join(config.llvm_tools_dir, "..", "lib", name)
               for name in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")]
if os.path.exists(os.path.join(config.llvm_tools_dir, "mlir-runner")) and all(
        os.path.exists(lib) for lib in runner_libs):
    config.available_features.add("mlir-runner")
    config.substitutions.append(("%mlir_runner_libs", ",".join(runner_libs)))
libomp_dir = "/usr/lib/llvm-22/lib"
if os.path.exists(os.path.join(libomp_dir, "libomp.so")):
    config.available_features.add("libomp")
    config.substitutions.append(
        ("%libomp", f"-L{libomp_dir} -lomp -Wl,-rpath,{libomp_dir}"))
    config.substitutions.append(("%omp_shared_library", os.path.join(libomp_dir, "libomp.so")))
for arch, sysroot_name in [("aarch64", "aarch64-linux-gnu"), ("riscv64", "riscv64-linux-gnu")]:
    cross_cc = shutil.which(f"{sysroot_name}-gcc")
    qemu = shutil.which(f"qemu-{arch}")
    sysroot = f"/usr/{sysroot_name}"
    if not (cross_cc and qemu and os.path.isdir(os.path.join(sysroot, "lib"))):
        continue
    config.available_features.add(f"qemu-{arch}")
    config.substitutions.append((f"%{arch}-cc", cross_cc))
    # Longest names first: lit substitutes in order.
    if arch == "riscv64":
        config.substitutions.append(
            ("%run-riscv64-v", f"{qemu} -cpu rv64,v=true,vlen=128 -L {sysroot}"))
    config.substitutions.append((f"%run-{arch}", f"{qemu} -L {sysroot}"))

# PTX validation (test/Target/LLVM/gpu-ptxas.test): the CUDA toolkit is
# optional; the PTX path never needs it.
if shutil.which("ptxas"):
    config.available_features.add("ptxas")

# perfdojo-tune under MPI (test/Tune): `mpi` where the build has MPI and
# mpirun exists; %mpirun allows root (CI runs as root) and more ranks than
# cores (CI has 2). `netns` where this process may make network namespaces
# (root with iproute2): the two-host test's hosts.
mpirun = shutil.which("mpirun")
if getattr(config, "perfdojo_enable_mpi", False) and mpirun:
    config.available_features.add("mpi")
    config.substitutions.append(
        ("%mpirun", f"{mpirun} --allow-run-as-root --oversubscribe "
                    "--mca btl self,tcp"))
ip = shutil.which("ip") or "/usr/sbin/ip"
if os.geteuid() == 0 and os.path.exists(ip):
    probe = f"perfdojo-lit-probe-{os.getpid()}"
    if subprocess.run([ip, "netns", "add", probe], capture_output=True).returncode == 0:
        subprocess.run([ip, "netns", "del", probe], capture_output=True)
        config.available_features.add("netns")
