#!/usr/bin/python3
"""readme_blocks.py README --root SRC --build BUILD --work DIR: runs every indented
command block of a Markdown file as written, as a new user would, and exits 1 when one
fails.

The user's setting is rebuilt in DIR: every entry of SRC linked in (so `examples/...` and
`tools/...` resolve and the files a block writes land in DIR, not in the source tree),
`build` linked to BUILD, and PATH cut to the system's directories, so a block finds the
tools only through the README's own `export PATH=...` line. Each block runs in a fresh
`bash -e -o pipefail` after the blocks marked `setup`.

A block is marked by an HTML comment (invisible on GitHub) on the line before it:
  <!-- readme-test: setup -->                 run, and run again before every later block
  <!-- readme-test: output -->                program output shown, not a command
  <!-- readme-test: skip REASON -->           not run here (REASON: why, e.g. needs MPI)
  <!-- readme-test: install PREFIX -->        run after `cmake --install BUILD` into a
                                              fresh prefix that replaces PREFIX in the block
Fenced blocks (```) are code, not commands: not run.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# Not /usr/local: a `make install` there would stand in for the build tree's tools.
SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
MARK = re.compile(r"^<!--\s*readme-test:\s*(\w+)\s*(.*?)\s*-->\s*$")


def blocks(lines):
    """(first line number, mark, argument, text) of each indented block."""
    out, fenced, k = [], False, 0
    while k < len(lines):
        line = lines[k]
        if line.startswith("```"):
            fenced = not fenced
        # an indented block follows a blank line (else it continues a list item)
        if (not fenced and line.startswith("    ") and line.strip() and k > 0 and
                not lines[k - 1].strip()):
            start, body = k, []
            while k < len(lines) and (lines[k].startswith("    ") or not lines[k].strip()):
                body.append(lines[k][4:])
                k += 1
            while body and not body[-1].strip():
                body.pop()
            mark, arg = "run", ""
            j = start - 2  # the line before the blank line
            if j >= 0:
                m = MARK.match(lines[j])
                if m:
                    mark, arg = m.group(1), m.group(2)
            out.append((start + 1, mark, arg, "\n".join(body) + "\n"))
            continue
        k += 1
    return out


def mirror(root, build, work):
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    for name in os.listdir(root):
        if name == ".git" or name.startswith("build"):
            continue
        os.symlink(os.path.join(root, name), os.path.join(work, name))
    os.symlink(build, os.path.join(work, "build"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("readme")
    p.add_argument("--root", required=True, help="the source tree the README describes")
    p.add_argument("--build", required=True, help="the build directory (README: build/)")
    p.add_argument("--work", required=True, help="a scratch directory (recreated)")
    p.add_argument("--timeout", type=int, default=120, help="seconds per block")
    a = p.parse_args()
    name = os.path.basename(a.readme)
    with open(a.readme) as f:
        lines = f.read().split("\n")
    work = os.path.abspath(a.work)
    mirror(os.path.abspath(a.root), os.path.abspath(a.build), work)
    env = {k: v for k, v in os.environ.items() if k not in ("PATH", "PWD")}
    env["PATH"] = SYSTEM_PATH
    setup, failed, ran = "", 0, 0
    for line, mark, arg, text in blocks(lines):
        first = text.split("\n", 1)[0]
        if mark in ("output", "skip"):
            print(f"{name}:{line}: {mark}{': ' + arg if arg else ''}: {first}")
            continue
        if mark not in ("run", "setup", "install"):
            print(f"{name}:{line}: error: unknown mark '{mark}'")
            failed += 1
            continue
        if mark == "install":
            if not arg:
                print(f"{name}:{line}: error: 'install' needs the PREFIX the block names")
                failed += 1
                continue
            prefix = os.path.join(work, "prefix")
            r = subprocess.run(["cmake", "--install", a.build, "--prefix", prefix],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if r.returncode != 0:
                print(f"{name}:{line}: FAILED: cmake --install {a.build} --prefix {prefix}")
                sys.stdout.write(r.stderr.decode(errors="replace"))
                failed += 1
                continue
            text = text.replace(arg, prefix)
        env["PWD"] = work
        try:
            r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", setup + text], cwd=work,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=a.timeout)
            rc, output = r.returncode, r.stdout.decode(errors="replace")
        except subprocess.TimeoutExpired:
            rc, output = "timeout", ""
        ran += 1
        if rc != 0:
            failed += 1
            print(f"{name}:{line}: FAILED (exit {rc}): {first}")
            sys.stdout.write("".join("  | " + o + "\n" for o in output.splitlines()[-20:]))
            continue
        print(f"{name}:{line}: ok: {first}")
        if mark == "setup":
            setup += text
    print(f"{name}: {ran} blocks run, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
