#!/usr/bin/python3
"""import_cache.py: tools/remat-import-torch, its outputs kept in $REMAT_IMPORT_CACHE.

Why: `make test` runs the lit suite in the normal and the ASan build, and the importer's
tests trace the same models in both. The importer is Python, the same in every build, so
the second trace checks nothing the first did not; what follows it (remat-opt, remat-run
on the traced IR) still runs in each build. test/run_tests.py makes the directory for
one run; lit.cfg.py sends %import_torch here when the variable is set.

An invocation is cached when its outputs are -o FILE, --partition FILE, --expected DIR,
--check DIR and its stdout/stderr, and it exits 0; another form of option, --remat-run,
--compiled or an error runs the importer every time. The key is the arguments (output
paths left out), the contents of a FILE.py model, the sources of the importer and the
zoo, and torch's version file. A hit copies the outputs and replays the output; a miss
runs the importer and keeps its outputs. --check's remat-run is not skipped: on a hit it
runs again, this build's remat-run on the cached inputs, and its outputs must equal the
cached ones (which the first run compared with torch) byte for byte; otherwise the
importer runs in full."""
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

import torch_server

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# REMAT_IMPORT_CACHE_TOOL: another importer, for test/tools/import-cache.test only.
TOOL = os.environ.get("REMAT_IMPORT_CACHE_TOOL") or os.path.join(ROOT, "tools", "remat-import-torch")
OUTPUTS = {"-o": "output", "--output": "output", "--partition": "partition",
           "--expected": "expected", "--check": "check"}
NEVER = ("--remat-run", "--compiled", "--self-test", "--list-ops", "-h", "--help")


def run_tool(args):
    """The importer on this process's stdin, stdout and stderr: on the run's fork server
    (test/torch_server.py) when one answers, else in place of this process."""
    torch_server.run_or_exec([TOOL] + args, [TOOL] + args)


def run_captured(args):
    """The importer with its stdout and stderr captured: (status, stdout, stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        code = torch_server.request(os.environ.get("REMAT_TORCH_SERVER"), [TOOL] + args,
                                    [0, out.fileno(), err.fileno()])
        if code is None:
            code = subprocess.run([TOOL] + args, stdout=out, stderr=err).returncode
        out.seek(0)
        err.seek(0)
        return code, out.read(), err.read()


def plan(args):
    """(key material, {name: path}) or None when this invocation is not cached."""
    material, outs, k = [], {}, 0
    while k < len(args):
        a = args[k]
        if a.startswith(NEVER) or a.startswith(tuple(o + "=" for o in OUTPUTS)):
            return None
        if a in OUTPUTS:
            if k + 1 == len(args) or args[k + 1] == "-":
                return None
            outs[OUTPUTS[a]] = args[k + 1]
            material.append(a)
            k += 2
            continue
        material.append(a)
        path = a.split(":", 1)[0]
        if path.endswith(".py") and os.path.isfile(path):  # FILE.py:CLASS
            with open(path, "rb") as f:
                material.append(hashlib.sha256(f.read()).hexdigest())
        k += 1
    return material, outs


def sources():
    files = [TOOL]
    for d in (os.path.join(ROOT, "tools", "remat_torch"), os.path.join(ROOT, "bench", "models")):
        files += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".py"))
    spec = importlib.util.find_spec("torch")  # finds the package, does not import it
    if spec and spec.origin:
        files.append(os.path.join(os.path.dirname(spec.origin), "version.py"))
    return files


def key_of(material):
    h = hashlib.sha256()
    for m in material:
        h.update(m.encode() + b"\0")
    for fn in sources():
        h.update(fn.encode() + b"\0")
        try:
            with open(fn, "rb") as f:
                h.update(f.read())
        except OSError:
            h.update(b"missing")
    return h.hexdigest()


def copy(src, dst):
    if os.path.isdir(src):
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst)
    else:
        shutil.copyfile(src, dst)


def unmask(text, outs):
    for name, path in outs.items():
        text = text.replace(b"@" + name.encode() + b"@", path.encode())
    return text


def mask(text, outs):
    for name, path in sorted(outs.items(), key=lambda kv: -len(kv[1])):
        text = text.replace(path.encode(), b"@" + name.encode() + b"@")
    return text


def rerun_check(entry, outs):
    """--check's remat-run again, as check.py runs it, on the copied inputs: True when it
    succeeds and writes the cached rt.txt byte for byte."""
    import re
    with open(outs["output"]) as f:
        m = re.search(r"^func\.func @([^(\s]+)\(", f.read(), re.M)
    remat_run = shutil.which("remat-run")
    if not m or not remat_run:
        return False
    chk = outs["check"]
    rt = os.path.join(chk, "rt.txt")
    os.remove(rt)
    proc = subprocess.run([remat_run, outs["output"], "--fn", m.group(1), "--inputs",
                           os.path.join(chk, "inputs.txt"), "--outputs", rt, "--print=none",
                           "--reference"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if proc.returncode != 0 or not os.path.isfile(rt):
        return False
    with open(rt, "rb") as a, open(os.path.join(entry, "check", "rt.txt"), "rb") as b:
        return a.read() == b.read()


def main():
    args = sys.argv[1:]
    cache = os.environ.get("REMAT_IMPORT_CACHE")
    p = plan(args) if cache else None
    if not p:
        run_tool(args)
    material, outs = p
    entry = os.path.join(cache, key_of(material))
    if os.path.isdir(entry):
        for name, path in outs.items():
            copy(os.path.join(entry, name), path)
        if "check" in outs and not rerun_check(entry, outs):
            run_tool(args)  # remat-run disagrees or fails: the whole import, as without cache
        with open(os.path.join(entry, "stdout"), "rb") as f:
            sys.stdout.buffer.write(unmask(f.read(), outs))
        with open(os.path.join(entry, "stderr"), "rb") as f:
            sys.stderr.buffer.write(unmask(f.read(), outs))
        return 0
    code, stdout, stderr = run_captured(args)
    sys.stdout.buffer.write(stdout)
    sys.stderr.buffer.write(stderr)
    if code == 0 and all(os.path.exists(p) for p in outs.values()) and \
            ("check" not in outs or os.path.isfile(os.path.join(outs["check"], "rt.txt")) and
             os.path.isfile(outs.get("output", ""))):
        os.makedirs(cache, exist_ok=True)
        tmp = tempfile.mkdtemp(dir=cache, prefix=".new-")
        for name, path in outs.items():
            copy(path, os.path.join(tmp, name))
        with open(os.path.join(tmp, "stdout"), "wb") as f:
            f.write(mask(stdout, outs))
        with open(os.path.join(tmp, "stderr"), "wb") as f:
            f.write(mask(stderr, outs))
        try:
            os.rename(tmp, entry)  # atomic: a concurrent twin's entry wins
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
