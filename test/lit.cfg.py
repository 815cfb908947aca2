# lit configuration for remat (in the style of MLIR's examples/standalone).
import os
import lit.formats

config.name = "remat"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
# test/fuzz runs only in the fuzz build (make test runs lit on build-fuzz/test/fuzz).
if not getattr(config, "remat_fuzz", False):
    config.excludes.append("fuzz")
else:
    config.substitutions.append(("%fuzz_build", config.remat_obj_root))
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.remat_obj_root, "test")

# remat's tools first, then LLVM's (FileCheck, not, count, mlir-opt).
config.environment["PATH"] = os.pathsep.join(
    [config.remat_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# REMAT_CACHE_DIR: the codegen's kernel cache that test/run_tests.py shares between the
# builds of one run; GCOV_*: bench/asan_cover.py's per-test coverage.
for var in ["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "HOME", "TMPDIR", "PYTHONPATH",
            "REMAT_IMPORT_CACHE", "REMAT_CACHE_DIR", "REMAT_TORCH_SERVER", "GCOV_PREFIX",
            "GCOV_PREFIX_STRIP"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%unit", config.remat_unit_dir))
# %python: the interpreter running lit (Debian's /usr/bin/python3, lit's shebang), as LLVM's
# own suites do. A bare `python3` can be a version manager's shim that costs more than
# the script (pyenv's: about 0.5 s a call against 0.06 s).
import sys
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%rt_irdl", os.path.join(config.remat_src_root, "dialect-c", "rt.irdl.mlir")))
config.substitutions.append(("%examples", os.path.join(config.remat_src_root, "examples")))
config.substitutions.append(("%remat_lib", config.remat_lib_dir))
config.substitutions.append(("%remat_src", config.remat_src_root))
config.substitutions.append(("%remat_obj", config.remat_obj_root))
config.substitutions.append(("%llvm_lib", config.llvm_lib_dir))

# %layer_NAME: the C compiler with the include folders layer NAME compiles with (and no
# other), for test/layers; longest names first, as %layer_runtime prefixes another.
config.substitutions.append(("%cc", config.c_compiler))
for name in sorted(config.remat_layers, key=len, reverse=True):
    dirs = config.remat_layers[name] + [os.path.join(config.remat_src_root, "include")]
    dirs += config.mlir_includes
    config.substitutions.append(("%layer_" + name, " ".join("-I" + d for d in dirs)))

# %layer_links: every layer as NAME=ARCHIVE:SEES, for test/layers/Inputs/link_check.py.
config.substitutions.append(("%layer_links", " ".join(
    "%s=%s:%s" % (name, os.path.join(config.remat_lib_dir, "layers", "libremat_%s.a" % name),
                  ",".join(config.remat_layer_sees[name]))
    for name in config.remat_layer_sees)))

if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
if config.have_curand:
    config.available_features.add("curand")
# The CUDA backend is built where the toolkit's headers are (cuda-toolkit: its unit test
# on a fake driver runs). cuda-device: a GPU is usable (remat-run --device=cuda
# --device-info finds the driver and a device); the GPU tests REQUIRE it and are
# UNSUPPORTED elsewhere. Not in the sanitizer build: ASan's shadow memory collides with the
# address ranges the driver reserves (it needs ASAN_OPTIONS=protect_shadow_gap=0) and LSan
# reports the driver's own allocations as leaks.
import subprocess
if config.have_cuda:
    config.available_features.add("cuda-toolkit")
    stub = os.path.join(config.cuda_root, "lib64", "stubs", "libcuda.so")
    if os.path.exists(stub):
        config.available_features.add("cuda-stub")
        config.substitutions.append(("%cuda_stub", stub))
    if not config.remat_sanitize:
        try:
            if subprocess.run([os.path.join(config.remat_tools_dir, "remat-run"), "--device=cuda",
                               "--device-info"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=120).returncode == 0:
                config.available_features.add("cuda-device")
        except (OSError, subprocess.TimeoutExpired):
            pass
# --param as-asan=1: choose tests as the sanitizer build does (bench/asan_cover.py measures
# the coverage of what that build runs on a --coverage build).
if config.remat_sanitize or lit_config.params.get("as-asan"):
    config.available_features.add("asan")
if config.remat_sanitize:
    # A sanitizer report aborts, so `not tool ...` cannot mistake it for an expected error.
    config.environment["ASAN_OPTIONS"] = "abort_on_error=1:detect_leaks=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:abort_on_error=1"

# The sources' style (.clang-format) was tuned with clang-format 14, Debian 12's; another
# version formats some constructs differently, so the check needs that one.
try:
    out = subprocess.run(["clang-format", "--version"], capture_output=True, text=True,
                         timeout=60).stdout
    if " version 14." in out:
        config.available_features.add("clang-format-14")
except (OSError, subprocess.TimeoutExpired):
    pass

# The PyTorch importer (test/import) runs on Debian's python3 with python3-torch and
# python3-networkx (torch's min-cut partitioner needs it); `make test` installs them.
import subprocess
try:
    # Found, not imported: importing torch takes 1.8 s, at the start of each lit run,
    # and a torch that is there but broken should fail the tests, not skip them.
    if subprocess.run(["/usr/bin/python3", "-c", "import importlib.util as u, sys; sys.exit("
                       "not (u.find_spec('torch') and u.find_spec('networkx')))"],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                      env=config.environment, timeout=120).returncode == 0:
        config.available_features.add("torch")
except (OSError, subprocess.TimeoutExpired):
    pass
# With REMAT_IMPORT_CACHE (test/run_tests.py sets it), traces are shared between the
# builds of one run (test/import_cache.py).
if os.environ.get("REMAT_IMPORT_CACHE"):
    config.substitutions.append(("%import_torch", os.path.join(config.remat_src_root, "test", "import_cache.py")))
else:
    config.substitutions.append(("%import_torch", os.path.join(config.remat_src_root, "tools", "remat-import-torch")))
# %torch_python SCRIPT: python3 SCRIPT on the run's fork server, which imported torch
# once (test/torch_run.py, test/torch_server.py).
config.substitutions.append(("%torch_python", sys.executable + " " + os.path.join(
    config.remat_src_root, "test", "torch_run.py")))
config.substitutions.append(("%remat_compare", os.path.join(config.remat_src_root, "tools", "remat-compare")))

# Real ranks (test/mpi): `%mpirun N` starts N ranks as root (CI runs as root) with more
# ranks than cores allowed, under a timeout so a hang fails its test instead of the
# suite. In the sanitizer build OpenMPI's own allocations at MPI_Init are reported as
# leaks: test/mpi/lsan-openmpi.supp suppresses leaks allocated inside OpenMPI's libraries
# only. Their stacks start in OpenMPI's plugins, which OpenMPI unloads before the leak
# check: the ranks preload test/mpi/no_dlclose.c (built without sanitizers, hence
# verify_asan_link_order=0), which keeps them loaded, so the suppressions can name them.
# (LSan's full unwinder, fast_unwind_on_malloc=0, reached libmpi's frames too, at 4x the
# time of the MPI tests.)
if config.have_mpi and config.mpirun and os.path.exists(config.mpirun):
    config.available_features.add("mpi")
    # Shared-memory transfers by copy, not by reading the other process's memory
    # (process_vm_readv), which containers without ptrace rights refuse.
    # OpenMPI's mpirun refuses root (CI) unless given --allow-run-as-root or both
    # OMPI_ALLOW_RUN_AS_ROOT variables: both are set, whichever a launcher honours.
    # When a rank fails, mpirun signals the others and waits odls_base_sigkill_timeout
    # (1 s) before SIGKILL, though they have exited: 0, as the error tests' every case
    # then waits a second for nothing.
    prefix = ("env OMPI_MCA_btl_vader_single_copy_mechanism=none "
              "OMPI_MCA_odls_base_sigkill_timeout=0 "
              "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ")
    if config.remat_sanitize:
        supp = os.path.join(config.remat_src_root, "test", "mpi", "lsan-openmpi.supp")
        prefix += ("ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:verify_asan_link_order=0 "
                   "LSAN_OPTIONS=print_suppressions=0:suppressions=" + supp + " ")
    preload = " -x LD_PRELOAD=" + config.no_dlclose if config.remat_sanitize else ""
    config.substitutions.append(
        ("%mpirun", prefix + "timeout -k 10 300 " + config.mpirun + preload +
         " --allow-run-as-root --oversubscribe -np"))
