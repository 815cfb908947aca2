"""A ctypes binding of remat's C API (include/remat-c/Remat.h) over libremat.so.

In-process, no subprocess and no file: rt text is parsed from memory
(rematParseString), passes are built from their option text (rematCreatePass) and run
by an MLIR pass manager (rematRunPasses, which hands back the reports written to "-"),
the result IR is printed through a callback, and the saved set of each split comes back
by name (rematSplitSavedValues).

    with binding.Context() as ctx:
        m = ctx.parse(text)
        report = m.run([("remat-mincut", {"scalar_factor": 0.1, "report": "-"})])
        m.saved()      # [Saved(forward='f_fwd', index=0, name='mm_3', type=..., bytes=...)]
        str(m)         # the split IR

The library is found through $REMAT_LIBRARY (a path), then the build tree next to this
package (build/lib/libremat.so), then the installed prefix (PREFIX/lib), then the
dynamic loader (libremat.so.0). Ownership follows the C API: a Module owns its
MlirModule, a Context its MlirContext; strings returned by remat are copied into Python
and freed with rematStringFree at once.
"""
import collections
import ctypes
import ctypes.util
import os
import threading


class RematError(Exception):
    """A failed parse, pass option or pass run; the message holds remat's diagnostics."""


# ---- MLIR C API handles (structs of one pointer, passed by value) ---------------------

class _Handle(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]

    def __bool__(self):
        return bool(self.ptr)


class MlirContext(_Handle):
    pass


class MlirModule(_Handle):
    pass


class MlirOperation(_Handle):
    pass


class MlirPass(_Handle):
    pass


class MlirPassManager(_Handle):
    pass


class MlirOpPrintingFlags(_Handle):
    pass


class MlirStringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]


class MlirLogicalResult(ctypes.Structure):
    _fields_ = [("value", ctypes.c_int8)]


_CALLBACK = ctypes.CFUNCTYPE(None, MlirStringRef, ctypes.c_void_p)

_lib = None
_lock = threading.Lock()


def _candidates():
    env = os.environ.get("REMAT_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))          # source tree: tools/remat_torch
    yield os.path.join(root, "build", "lib", "libremat.so")
    # installed: PREFIX/lib/python3/dist-packages/remat_torch or PREFIX/share/remat/...
    for up in (3, 4):
        prefix = here
        for _ in range(up):
            prefix = os.path.dirname(prefix)
        yield os.path.join(prefix, "lib", "libremat.so")
    yield ctypes.util.find_library("remat") or "libremat.so.0"


def library():
    """libremat.so, loaded once, with the prototypes this module uses."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        errors = []
        for path in _candidates():
            if os.sep in path and not os.path.exists(path):
                errors.append(f"{path}: no such file")
                continue
            try:
                lib = ctypes.CDLL(path)
                break
            except OSError as e:
                errors.append(str(e))
        else:
            raise RematError("cannot load libremat.so (set REMAT_LIBRARY to its path): " +
                             "; ".join(errors))
        _prototypes(lib)
        _lib = lib
        return lib


def _proto(lib, name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype, f.argtypes = restype, list(argtypes)


def _prototypes(lib):
    p, c_char_p, c_void_p = ctypes.POINTER, ctypes.c_char_p, ctypes.c_void_p
    _proto(lib, "rematVersion", c_char_p)
    _proto(lib, "rematStringFree", None, c_void_p)
    _proto(lib, "rematContextCreate", MlirContext, c_void_p, p(ctypes.c_int))
    _proto(lib, "rematAttachDiagnosticPrinter", None, MlirContext, c_void_p, p(ctypes.c_int))
    _proto(lib, "mlirContextDestroy", None, MlirContext)
    _proto(lib, "rematParseString", MlirModule, MlirContext, MlirStringRef, MlirStringRef)
    _proto(lib, "rematVerify", MlirLogicalResult, MlirOperation)
    _proto(lib, "mlirModuleGetOperation", MlirOperation, MlirModule)
    _proto(lib, "mlirModuleDestroy", None, MlirModule)
    _proto(lib, "rematCreatePass", MlirPass, c_char_p, c_char_p, c_char_p, ctypes.c_size_t)
    _proto(lib, "mlirPassManagerCreate", MlirPassManager, MlirContext)
    _proto(lib, "mlirPassManagerDestroy", None, MlirPassManager)
    _proto(lib, "mlirPassManagerAddOwnedPass", None, MlirPassManager, MlirPass)
    _proto(lib, "rematRunPasses", MlirLogicalResult, MlirPassManager, MlirOperation,
           p(c_void_p))
    _proto(lib, "rematSplitSavedValues", c_void_p, MlirOperation)
    _proto(lib, "mlirOpPrintingFlagsCreate", MlirOpPrintingFlags)
    _proto(lib, "mlirOpPrintingFlagsDestroy", None, MlirOpPrintingFlags)
    _proto(lib, "mlirOpPrintingFlagsPrintNameLocAsPrefix", None, MlirOpPrintingFlags)
    _proto(lib, "mlirOpPrintingFlagsEnableDebugInfo", None, MlirOpPrintingFlags, ctypes.c_bool,
           ctypes.c_bool)
    _proto(lib, "mlirOperationPrintWithFlags", None, MlirOperation, MlirOpPrintingFlags,
           _CALLBACK, c_void_p)


_libc = None


def _c():
    """The C library (open_memstream, fflush, fclose): diagnostics go to a memory stream."""
    global _libc
    if _libc is None:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        _proto(libc, "open_memstream", ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
               ctypes.POINTER(ctypes.c_size_t))
        _proto(libc, "fflush", ctypes.c_int, ctypes.c_void_p)
        _proto(libc, "fclose", ctypes.c_int, ctypes.c_void_p)
        _libc = libc
    return _libc


def _take_string(ptr):
    """Copies a char * remat returned and frees it (rematStringFree)."""
    if not ptr:
        return ""
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        library().rematStringFree(ptr)


def version():
    return library().rematVersion().decode()


Saved = collections.namedtuple("Saved", "forward index name type bytes")


def _option_text(options):
    """{"scalar_factor": 0.1, "ban": "matmul"} -> 'scalar-factor=0.1,ban="matmul"'; a
    string is taken as written (remat-opt's syntax)."""
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    items = []
    for key, value in options.items():
        name = key.replace("_", "-")
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        value = str(value)
        if any(ch in value for ch in ", \t"):
            value = '"' + value + '"'
        items.append(f"{name}={value}")
    return ",".join(items)


class Context:
    """An MlirContext set up for rt (rematContextCreate) whose diagnostics are printed
    into memory; parse, run and verify failures raise RematError with them."""

    def __init__(self):
        lib = library()
        self._buf = ctypes.c_void_p()
        self._len = ctypes.c_size_t()
        self._stream = _c().open_memstream(ctypes.byref(self._buf), ctypes.byref(self._len))
        if not self._stream:
            raise MemoryError("open_memstream")
        self._read = 0
        self._modules = []          # closed before the context
        self._errors = ctypes.c_int(0)
        self.ctx = lib.rematContextCreate(self._stream, ctypes.byref(self._errors))
        if not self.ctx:
            _c().fclose(self._stream)
            raise RematError("rematContextCreate: the rt dialect did not load")

    def diagnostics(self):
        """What was printed since the last call."""
        _c().fflush(self._stream)
        if not self._buf.value:
            return ""
        text = ctypes.string_at(self._buf.value, self._len.value)[self._read:]
        self._read = self._len.value
        return text.decode("utf-8", "replace")

    def parse(self, text, name="<rt>"):
        """A Module from rt text, checked by remat's verifier."""
        lib = library()
        data = text.encode() if isinstance(text, str) else bytes(text)
        nm = name.encode()
        before = self._errors.value
        m = lib.rematParseString(self.ctx, MlirStringRef(data, len(data)),
                                 MlirStringRef(nm, len(nm)))
        if not m:
            raise RematError(f"{name}: parse failed\n" + self.diagnostics())
        module = Module(self, m)
        self._modules.append(module)
        if lib.rematVerify(module.operation).value == 0 or self._errors.value != before:
            module.close()
            raise RematError(f"{name}: rt verification failed\n" + self.diagnostics())
        return module

    def close(self):
        if self.ctx:
            for m in self._modules:
                m.close()
            self._modules = []
            library().mlirContextDestroy(self.ctx)
            self.ctx = MlirContext()
            _c().fclose(self._stream)       # frees nothing of ours: the buffer below
            ctypes.CDLL(None).free(self._buf)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Module:
    """A builtin.module owned by Python (mlirModuleDestroy on close)."""

    def __init__(self, context, handle):
        self.context, self.handle = context, handle

    @property
    def operation(self):
        return library().mlirModuleGetOperation(self.handle)

    def run(self, passes):
        """Runs remat's passes in order: passes = [(argument, options)], options a dict
        (keys in snake or kebab case) or option text. Returns the report text written to
        "-" (pass report="-" in a pass's options to get its report). Raises RematError
        with the diagnostics on invalid options or a failed pass."""
        lib = library()
        pm = lib.mlirPassManagerCreate(self.context.ctx)
        try:
            _add_passes(lib, pm, passes)
            report = ctypes.c_void_p()
            before = self.context._errors.value
            ok = lib.rematRunPasses(pm, self.operation, ctypes.byref(report)).value
            text = _take_string(report.value)
            if not ok or self.context._errors.value != before:
                raise RematError("pass pipeline failed\n" + self.context.diagnostics())
            return text
        finally:
            lib.mlirPassManagerDestroy(pm)

    def saved(self):
        """The saved set of every split in the module, as Saved tuples in order."""
        text = _take_string(library().rematSplitSavedValues(self.operation))
        out = []
        for line in text.splitlines():
            fwd, index, name, ty, nbytes = line.split("\t")
            out.append(Saved(fwd, int(index), name, ty, int(nbytes)))
        return out

    def ir(self, names=True, locations=False):
        """The module's text. names: SSA values take the names of their name locations
        (the importer's fx node names); locations: print loc(...) too."""
        lib = library()
        flags = lib.mlirOpPrintingFlagsCreate()
        chunks = []

        def cb(s, _):
            chunks.append(ctypes.string_at(s.data, s.length))

        callback = _CALLBACK(cb)
        try:
            if names:
                lib.mlirOpPrintingFlagsPrintNameLocAsPrefix(flags)
            if locations:
                lib.mlirOpPrintingFlagsEnableDebugInfo(flags, True, False)
            lib.mlirOperationPrintWithFlags(self.operation, flags, callback, None)
        finally:
            lib.mlirOpPrintingFlagsDestroy(flags)
        return b"".join(chunks).decode("utf-8", "replace")

    __str__ = ir

    def close(self):
        if self.handle:
            library().mlirModuleDestroy(self.handle)
            self.handle = MlirModule()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def check_passes(passes):
    """Builds each pass of `passes` (as Module.run takes them) and drops it: RematError
    with remat's one-line message for an unknown option or a bad value, before any IR."""
    lib = library()
    with Context() as ctx:
        pm = lib.mlirPassManagerCreate(ctx.ctx)
        try:
            _add_passes(lib, pm, passes)
        finally:
            lib.mlirPassManagerDestroy(pm)


def _add_passes(lib, pm, passes):
    """Each pass built from its options and added to the pass manager `pm` (which owns
    it); RematError for invalid options."""
    for argument, options in passes:
        err = ctypes.create_string_buffer(1024)
        text = _option_text(options)
        if "\0" in text or "\0" in argument:  # C would see the text up to it only
            raise RematError(f"--{argument}: the options contain a NUL character")
        p = lib.rematCreatePass(argument.encode(), text.encode(), err, len(err))
        if not p:
            raise RematError(f"--{argument}: {err.value.decode()}")
        lib.mlirPassManagerAddOwnedPass(pm, p)
