#!/usr/bin/python3
"""torch_server.py: a fork server for tools/remat-import-torch (and the tests' other
Python scripts that import torch, test/torch_run.py) during one test run.

Why: an importer run in the tests takes about 2.3 s, of which about 2.1 s is Python
importing torch and the tracer's modules (torch.fx's proxy_tensor, sympy). The server
imports them once; each request is served by a fork of it, which runs the importer as
`python3 tools/remat-import-torch ARGS` would, in the client's working directory and
environment, on the client's stdin, stdout and stderr (passed as file descriptors), and
sends back the exit status. Only third-party modules are imported before the fork: remat's
own (remat_torch, the zoo) are imported by each request, under its environment. A fork
shares nothing with the next request. test/run_tests.py starts the server for one run
($REMAT_TORCH_SERVER, a socket); test/import_cache.py is its client and runs the importer
itself when no server answers.

    torch_server.py SOCKET [LOG]   serve on SOCKET; LOG gets one line per request served
"""
import json
import os
import socket
import struct
import sys


def request(path, argv, fds):
    """Runs ARGV (the importer and its arguments) on the server at PATH with FDS as its
    stdin, stdout and stderr. Returns the exit status, or None when no server answers."""
    if not path:
        return None
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.settimeout(2)  # a server that is still importing torch has not bound the socket
        s.connect(path)
        s.settimeout(None)
        body = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
        socket.send_fds(s, [struct.pack("!I", len(body))], fds)
        s.sendall(body)
    except OSError:
        s.close()
        return None
    status = b""
    while len(status) < 4:
        chunk = s.recv(4 - len(status))
        if not chunk:  # the child died without a status (a signal): as a crash would
            s.close()
            print("torch_server: the importer ended without an exit status", file=sys.stderr)
            return 1
        status += chunk
    s.close()
    return struct.unpack("!i", status)[0]


def run_or_exec(argv, exec_argv):
    """ARGV on the server of $REMAT_TORCH_SERVER with this process's stdin, stdout and
    stderr, exiting with its status; with no server answering, EXEC_ARGV replaces this
    process instead."""
    code = request(os.environ.get("REMAT_TORCH_SERVER"), argv, [0, 1, 2])
    if code is not None:
        sys.exit(code)
    os.execv(exec_argv[0], exec_argv)


def run_request(conn, log):
    """In the forked child: run one request, send its status, exit."""
    import runpy
    import signal
    import traceback
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the importer waits for its children
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    head, fds, _, _ = socket.recv_fds(conn, 4, 3)
    (n,) = struct.unpack("!I", head)
    body = b""
    while len(body) < n:
        body += conn.recv(n - len(body))
    req = json.loads(body)
    for i, fd in enumerate(fds):
        os.dup2(fd, i)
        os.close(fd)
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    # sys.path as `python3 TOOL` has it: the script's folder first, then $PYTHONPATH.
    extra = [p for p in req["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:0] = [os.path.dirname(os.path.abspath(req["argv"][0]))] + extra
    sys.argv = list(req["argv"])
    if log:
        with open(log, "a") as f:
            f.write(" ".join(req["argv"][1:]) + "\n")
    code = 0
    try:
        runpy.run_path(req["argv"][0], run_name="__main__")
    except SystemExit as e:
        if e.code is None:
            code = 0
        elif isinstance(e.code, int):
            code = e.code
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    conn.sendall(struct.pack("!i", code))
    os._exit(code & 0xFF)


def serve(path, log=None):
    import signal
    import torch  # noqa: F401  what every request imports: the point of the server
    import torch.fx.experimental.proxy_tensor  # noqa: F401  the tracer's (with sympy)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path + ".new")
    s.listen(16)
    os.rename(path + ".new", path)  # clients see the socket only once it listens
    sys.stdout.flush()
    sys.stderr.flush()
    while True:
        conn, _ = s.accept()
        if os.fork() == 0:
            s.close()
            run_request(conn, log)
        conn.close()


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    serve(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None)
