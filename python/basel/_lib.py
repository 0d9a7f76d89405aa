"""The binding to libbasel: ctypes over the shared library the C build makes.

Why ctypes (and not a C extension): the package stays pure Python, so there
is no second build of the C sources and no second copy of the link line
(GSL, OpenBLAS, LAPACKE, jansson, OpenMP); ctypes releases the GIL around
every foreign call and takes it back for the progress callback, which is the
contract basel_fit_run needs (sampling runs without the GIL, the callback
runs Python on the calling thread). The price is that the prototypes below
mirror include/basel.h by hand; python/tests/test_lib.py checks them against
the header.

Where the library comes from, first found wins:
  1. $BASEL_LIBRARY (a path to libbasel.so);
  2. _libbasel*.so inside this package (compiled from the C sources by
     pip install, python/setup.py);
  3. the source tree's build/libbasel.so.0 (python/basel -> ../../build),
     for running the tests in place;
  4. the system's libbasel.so.0 (cmake --install).

Handles are wrapped in small classes (Data, Options, Fit, Pred) that free
them when collected. Every failing call raises BaselError (a ValueError)
carrying the library's message, code, file, line and column.
"""
import ctypes
import json
import os
import signal
import threading

__all__ = ["BaselError", "Data", "Options", "Fit", "library", "version", "blas"]

_c_size_p = ctypes.POINTER(ctypes.c_size_t)
_c_double_p = ctypes.POINTER(ctypes.c_double)

# basel_status (include/basel.h)
OK, EINVAL, ENOMEM, EIO, EPARSE, ENUMERIC, ECANCELLED, ERANGE, EINTERNAL = 0, -1, -2, -3, -4, -5, -6, -7, -8


class _Error(ctypes.Structure):
    """struct basel_error."""
    _fields_ = [("code", ctypes.c_int), ("file", ctypes.c_char * 256), ("line", ctypes.c_size_t),
                ("column", ctypes.c_size_t), ("message", ctypes.c_char * 512)]


PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_double, ctypes.c_void_p)

# name: (restype, argtypes); pointers to handles are c_void_p
_P = ctypes.c_void_p
_PP = ctypes.POINTER(ctypes.c_void_p)
_E = ctypes.POINTER(_Error)
_S = ctypes.c_char_p
_Z = ctypes.c_size_t
_PROTOTYPES = {
    "basel_status_str": (_S, [ctypes.c_int]),
    "basel_version": (_S, []),
    "basel_blas": (_S, []),
    "basel_free": (None, [_P]),
    "basel_data_from_matrix": (ctypes.c_int, [_PP, _S, _c_double_p, _Z, _Z, _Z, _Z, ctypes.POINTER(_S), _E]),
    "basel_data_add_column": (ctypes.c_int, [_P, _S, _c_double_p, _Z, _E]),
    "basel_data_add_labels": (ctypes.c_int, [_P, _S, ctypes.POINTER(_S), _E]),
    "basel_data_add_text": (ctypes.c_int, [_P, _S, ctypes.POINTER(_S), _E]),
    "basel_data_rows": (_Z, [_P]),
    "basel_data_cols": (_Z, [_P]),
    "basel_data_value": (ctypes.c_double, [_P, _Z, _Z]),
    "basel_data_free": (None, [_P]),
    "basel_options_create": (ctypes.c_int, [_PP]),
    "basel_options_set": (ctypes.c_int, [_P, _S, _S, _E]),
    "basel_options_get": (_S, [_P, _S]),
    "basel_options_count": (_Z, []),
    "basel_options_describe": (ctypes.c_int, [_Z, ctypes.POINTER(_S), ctypes.POINTER(_S)]),
    "basel_method_count": (_Z, []),
    "basel_method_describe": (ctypes.c_int, [_Z, ctypes.POINTER(_S), ctypes.POINTER(_S)]),
    "basel_method_option_default": (_S, [_S, _S]),
    "basel_options_set_progress": (None, [_P, PROGRESS_FN, _P]),
    "basel_options_free": (None, [_P]),
    "basel_fit_run": (ctypes.c_int, [_PP, _P, _P, _E]),
    "basel_fit_write_json": (ctypes.c_int, [_P, _S, _E]),
    "basel_fit_read_json": (ctypes.c_int, [_PP, _S, _E]),
    "basel_fit_write_draws": (ctypes.c_int, [_P, _S, _E]),
    "basel_fit_seed": (ctypes.c_ulong, [_P]),
    "basel_fit_summary": (ctypes.c_void_p, [_P]),
    "basel_fit_pip": (_c_double_p, [_P, _c_size_p]),
    "basel_fit_method": (_S, [_P]),
    "basel_fit_warning_count": (_Z, [_P]),
    "basel_fit_warning": (_S, [_P, _Z]),
    "basel_fit_atom_count": (_Z, [_P]),
    "basel_fit_atom_name": (_S, [_P, _Z]),
    "basel_fit_input_count": (_Z, [_P]),
    "basel_fit_input_name": (_S, [_P, _Z]),
    "basel_fit_size_posterior": (_c_double_p, [_P, _c_size_p]),
    "basel_fit_centres": (_c_double_p, [_P, _c_size_p]),
    "basel_fit_selected": (_c_size_p, [_P, _S, _c_size_p]),
    "basel_fit_draw_count": (_Z, [_P]),
    "basel_fit_draw": (ctypes.c_int, [_P, _Z, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(_c_size_p), _c_size_p]),
    "basel_fit_draw_scalar_count": (_Z, [_P]),
    "basel_fit_draw_scalar_name": (_S, [_P, _Z]),
    "basel_fit_draw_scalars": (ctypes.c_int, [_P, _Z, ctypes.POINTER(_c_double_p)]),
    "basel_fit_draw_value_count": (_Z, [_P]),
    "basel_fit_draw_value_name": (_S, [_P, _Z]),
    "basel_fit_draw_values": (ctypes.c_int, [_P, _Z, _c_double_p]),
    "basel_fit_draw_loglik_count": (_Z, [_P]),
    "basel_fit_draw_loglik": (ctypes.c_int, [_P, _Z, ctypes.POINTER(_c_double_p)]),
    "basel_fit_write_draws_loglik": (ctypes.c_int, [_P, _S, _E]),
    "basel_fit_to_json": (ctypes.c_void_p, [_P]),
    "basel_fit_from_json": (ctypes.c_int, [_PP, _S, ctypes.c_char_p, _Z, _E]),
    "basel_fit_free": (None, [_P]),
    "basel_fit_predict": (ctypes.c_int, [_P, _P, _S, ctypes.c_double, _PP, _E]),
    "basel_fit_predict_ex": (ctypes.c_int, [_P, _P, _S, ctypes.c_double, ctypes.c_int, _PP, _E]),
    "basel_pred_get": (ctypes.c_int, [_P, _Z, _Z, _c_double_p, _c_double_p, _c_double_p]),
    "basel_pred_rows": (_Z, [_P]),
    "basel_pred_class_count": (_Z, [_P]),
    "basel_pred_class_name": (_S, [_P, _Z]),
    "basel_pred_prob": (ctypes.c_int, [_P, _Z, _Z, _c_double_p, _c_size_p]),
    "basel_pred_free": (None, [_P]),
    "basel_pred_output_count": (_Z, [_P]),
    "basel_pred_has_se": (ctypes.c_int, [_P]),
    "basel_pred_se": (ctypes.c_int, [_P, _Z, _Z, _c_double_p]),
    "basel_pred_has_sd": (ctypes.c_int, [_P]),
    "basel_pred_sd": (ctypes.c_int, [_P, _Z, _Z, _c_double_p, _c_double_p]),
    "basel_fit_coef_count": (_Z, [_P]),
    "basel_fit_coef_level": (ctypes.c_double, [_P]),
    "basel_fit_coef_term": (_S, [_P, _Z]),
    "basel_fit_coef_target": (_S, [_P, _Z]),
    "basel_fit_coef_class": (_S, [_P, _Z]),
    "basel_fit_coef": (ctypes.c_int, [_P, _Z, _c_double_p]),
    "basel_fit_model_count": (_Z, [_P]),
    "basel_fit_model": (ctypes.c_int, [_P, _Z, ctypes.POINTER(_c_size_p), _c_size_p, _c_double_p, _c_double_p,
                                       _c_double_p]),
    "basel_fit_credible_set_count": (_Z, [_P]),
    "basel_fit_credible_set": (ctypes.c_int, [_P, _Z, ctypes.POINTER(_c_size_p), _c_size_p, _c_double_p,
                                              _c_double_p]),
    "basel_method_keeps_draws": (ctypes.c_int, [_S]),
    "basel_method_mean_interval": (ctypes.c_int, [_S]),
    "basel_method_model": (_S, [_S, _Z]),
}

# basel.h BASEL_COEF_*: the values of a coefficient table's row, in order
COEF_VALUES = ("pip", "mean", "sd", "cond_mean", "cond_sd", "lower", "upper")

_lock = threading.Lock()
_lib = None


def _candidates():
    env = os.environ.get("BASEL_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    own = sorted(n for n in os.listdir(here) if n.startswith("_libbasel") and n.endswith(".so"))
    return [os.path.join(here, n) for n in own] + [
            os.path.join(here, os.pardir, os.pardir, "build", "libbasel.so.0"),
            "libbasel.so.0"]


def library():
    """The loaded libbasel (ctypes.CDLL), loaded on first use."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for path in _candidates():
            if os.sep in path and not os.path.exists(path):
                tried.append(path + " (absent)")
                continue
            try:
                lib = ctypes.CDLL(path)
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            for name, (res, args) in _PROTOTYPES.items():
                try:
                    fn = getattr(lib, name)
                except AttributeError:
                    raise ImportError("basel: %s has no %s: it is older than this package; rebuild it "
                                      "(tools/build.sh) and reinstall the package" % (path, name)) from None
                fn.restype, fn.argtypes = res, args
            lib.path = path
            _lib = lib
            return lib
        raise ImportError("basel: cannot load libbasel; tried " + "; ".join(tried) +
                          ". Build it with tools/build.sh, or set BASEL_LIBRARY to its path.")


def version():
    """The run-time version of libbasel ("0.1.0")."""
    return library().basel_version().decode()


def blas():
    """Which BLAS libbasel's cblas_* calls bind to in this process, read off
    the loader: "optimised: OpenBLAS ... <path>", "reference: <path>" or
    "unknown: <path>" (include/basel.h, basel_blas)."""
    return library().basel_blas().decode()


def status_name(code):
    return library().basel_status_str(code).decode()


class BaselError(ValueError):
    """An error reported by libbasel: its message, with the status code
    (code, status: "BASEL_EPARSE"), and the file, line and column the message
    is about (file "" and line/column 0 when they do not apply)."""

    def __init__(self, message, code=EINVAL, file="", line=0, column=0):
        super().__init__(message)
        self.message, self.code, self.file, self.line, self.column = message, code, file, line, column

    @property
    def status(self):
        return status_name(self.code)

    def __str__(self):
        where = ""
        if self.file:
            where = self.file + ":"
            if self.line:
                where += "%d:" % self.line
                if self.column:
                    where += "%d:" % self.column
            where += " "
        return where + self.message

    def __reduce__(self):
        return (BaselError, (self.message, self.code, self.file, self.line, self.column))


def option_words(message, renamed=None):
    """The library words its messages for the command line ("--iter is not
    read by --method enumerate"); in Python the options are keys (Options,
    Fit.run: "iter", "model-prior") or, with renamed (the estimators'
    parameter names by option, e.g. {"iter": "n_iter"}), parameters
    ("n_iter", "model_prior", "keep_draws"). 'basel help ...' is left as
    the command it is."""
    import re
    keep = []

    def hold(m):
        keep.append(m.group(0))
        return "\0%d\0" % (len(keep) - 1)

    out = re.sub(r"'basel help[^']*'", hold, message)

    def word(m):
        name = m.group(1)
        if renamed is None:
            return name
        if name in ("draws", "keep-draws"):
            return "keep_draws"
        return renamed.get(name, name.replace("-", "_"))

    out = re.sub(r"--([a-z][a-z0-9-]*[a-z0-9])", word, out)
    return re.sub("\0(\\d+)\0", lambda m: keep[int(m.group(1))], out)


def _raise(err):
    """Raise the error in the caller-owned record err."""
    raw = err.message.decode("utf-8", "replace")
    message = option_words(raw)
    if err.code == ENOMEM:
        raise MemoryError("basel: " + message)
    e = BaselError(message, err.code, err.file.decode("utf-8", "replace"), err.line, err.column)
    e.library_message = raw  # the command line's wording, for a front end's own (option_words)
    raise e


def _check(rc, err):
    if rc < 0:
        if err.code == 0:  # a call that failed without filling the record
            err.code = rc
        _raise(err)
    return rc


def _b(text):
    return None if text is None else str(text).encode("utf-8")


def _taken_string(ptr):
    """A string the library handed out (basel_free frees it)."""
    if not ptr:
        raise MemoryError("basel: out of memory")
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        library().basel_free(ptr)


class _Handle:
    """Owns one pointer; frees it with the library's _free when collected."""
    _free = None

    def __init__(self, ptr):
        self._ptr = ptr

    def __del__(self):
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr and _lib is not None:
            getattr(_lib, self._free)(ptr)

    @property
    def ptr(self):
        if not self._ptr:
            raise ValueError("basel: handle already freed")
        return self._ptr


class Data(_Handle):
    """A table (basel_data) from a 2-D array of numbers (a numpy array or a
    pandas DataFrame): read in place with its strides
    (basel_data_from_matrix copies the values into the library). names are
    its columns' names: by default a DataFrame's own, else x1 .. xp."""
    _free = "basel_data_free"

    def __init__(self, x, names=None, source="<array>"):
        import numpy as np
        lib = library()
        if names is None and hasattr(x, "columns"):
            names = [str(c) for c in x.columns]
        x = np.asarray(x)
        if x.ndim == 2 and names is None:
            names = ["x%d" % (j + 1) for j in range(x.shape[1])]
        if x.ndim == 2 and len(names) != x.shape[1]:
            raise ValueError("Data: %d names for %d columns" % (len(names), x.shape[1]))
        if x.dtype != np.float64 or x.ndim != 2 or not _strides_ok(x):
            x = np.ascontiguousarray(x, dtype=np.float64)
        n, p = x.shape
        names_c = (ctypes.c_char_p * p)(*[_b(s) for s in names]) if names is not None else None
        rs, cs = (s // 8 for s in x.strides)
        err, out = _Error(), ctypes.c_void_p()
        rc = lib.basel_data_from_matrix(ctypes.byref(out), _b(source), x.ctypes.data_as(_c_double_p), n, p,
                                        rs, cs, names_c, ctypes.byref(err))
        _check(rc, err)
        super().__init__(out.value)
        self.n, self.p = n, p

    def add_column(self, name, values):
        import numpy as np
        v = np.asarray(values)
        if v.dtype != np.float64 or v.ndim != 1 or not _strides_ok(v):
            v = np.ascontiguousarray(v, dtype=np.float64).reshape(-1)
        if v.shape[0] != self.n:
            raise ValueError("basel: column '%s' has %d values for %d rows" % (name, v.shape[0], self.n))
        err = _Error()
        _check(library().basel_data_add_column(self.ptr, _b(name), v.ctypes.data_as(_c_double_p),
                                               v.strides[0] // 8, ctypes.byref(err)), err)

    def add_labels(self, name, labels):
        if len(labels) != self.n:
            raise ValueError("basel: %d labels for %d rows" % (len(labels), self.n))
        arr = (ctypes.c_char_p * self.n)(*[_b(s) for s in labels])
        err = _Error()
        _check(library().basel_data_add_labels(self.ptr, _b(name), arr, ctypes.byref(err)), err)

    def add_text(self, name, cells):
        """A column of text (None or "" = missing): a categorical input,
        selected as one group of indicator columns (docs/FIT.md "factors")."""
        if len(cells) != self.n:
            raise ValueError("basel: %d cells for %d rows" % (len(cells), self.n))
        arr = (ctypes.c_char_p * self.n)(*[None if s is None else _b(str(s)) for s in cells])
        err = _Error()
        _check(library().basel_data_add_text(self.ptr, _b(name), arr, ctypes.byref(err)), err)
        self.p += 1


def _strides_ok(x):
    """Positive strides, whole doubles, aligned: the library can read x in place."""
    return (x.flags.aligned and all(s > 0 and s % 8 == 0 for s in x.strides)) or x.size == 0


class Options(_Handle):
    """Settings of a fit, by the command line's names (basel_options)."""
    _free = "basel_options_free"

    def __init__(self, settings=None):
        out = ctypes.c_void_p()
        if library().basel_options_create(ctypes.byref(out)) != OK:
            raise MemoryError("basel: out of memory")
        super().__init__(out.value)
        for name, value in (settings or {}).items():
            self[name] = value

    def __setitem__(self, name, value):
        err = _Error()
        _check(library().basel_options_set(self.ptr, _b(name), _b(_text(value)), ctypes.byref(err)), err)

    def __getitem__(self, name):
        v = library().basel_options_get(self.ptr, _b(name))
        if v is None:
            raise KeyError(name)
        return v.decode()


def _text(value):
    """An option's text form: booleans as true/false, which the library
    reads as 1/0 or yes/no where the option is a switch (basel_options_set)
    and refuses elsewhere; floats with 17 digits."""
    # also numpy's (np.bool_, named "bool" in numpy 2), without importing numpy
    if isinstance(value, bool) or (getattr(value, "dtype", None) is not None and value.dtype.kind == "b"
                                   and getattr(value, "ndim", 1) == 0):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(float(value))  # 17 digits, also for numpy floats
    return str(value)


def methods():
    """{method name: one-line summary} of the engines the library has."""
    lib = library()
    out = {}
    for i in range(lib.basel_method_count()):
        name, summary = ctypes.c_char_p(), ctypes.c_char_p()
        lib.basel_method_describe(i, ctypes.byref(name), ctypes.byref(summary))
        out[name.value.decode()] = summary.value.decode()
    return out


def option_catalogue():
    """{option name: one-line help} of every option basel_options_set knows."""
    lib = library()
    out = {}
    for i in range(lib.basel_options_count()):
        name, text = ctypes.c_char_p(), ctypes.c_char_p()
        lib.basel_options_describe(i, ctypes.byref(name), ctypes.byref(text))
        out[name.value.decode()] = text.value.decode()
    return out


def method_models(method):
    """The --model values method predicts with, its default first (the
    engine table's): ["bma"] when it has only the model average."""
    lib, out = library(), []
    while True:
        v = lib.basel_method_model(_b(method), len(out))
        if v is None:
            return out or ["bma"]
        out.append(v.decode())


def method_keeps_draws(method):
    """Whether the method keeps draws (keep_draws / --draws can be asked of it)."""
    return bool(library().basel_method_keeps_draws(_b(method)))


def method_default(method, option):
    """The default of option for method ("" when derived from the data), or
    None when the method does not read the option."""
    v = library().basel_method_option_default(_b(method), _b(option))
    return None if v is None else v.decode()


class _Progress:
    """The progress callback of one fit: calls the user's function with the
    fraction done (a true result cancels), and turns a Ctrl-C, or any
    exception the user's function raises, into a cancel, kept to be raised
    again once basel_fit_run has returned.

    Ctrl-C: Python runs signal handlers on the main thread at the entry of
    the next Python function, here the entry of this callback, where an
    exception could not be caught (ctypes would print it and return an
    undefined value). So while a fit runs on the main thread, SIGINT's
    handler (when it is Python's default) is replaced by one that only
    notes the signal; the callback, called on the calling thread, reads the
    note and cancels; the run then raises KeyboardInterrupt."""

    def __init__(self, fn):
        self.fn, self.exc, self.interrupted = fn, None, False
        self.c_fn = PROGRESS_FN(self)
        self.previous = None

    def __call__(self, fraction, user):
        try:
            if self.interrupted:
                return 1
            if self.fn is not None and self.fn(fraction):
                return 1
            return 0
        except BaseException as e:  # noqa: B902 (KeyboardInterrupt is the point)
            self.exc = e
            return 1

    def _on_sigint(self, signum, frame):
        self.interrupted = True

    def __enter__(self):
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self.previous = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None


class Fit(_Handle):
    """A fit (basel_fit): run on a table, or read back from FIT.json text.
    Pickles as its document (draws are not kept by the document)."""
    _free = "basel_fit_free"

    def __init__(self, ptr):
        super().__init__(ptr)
        self._doc = None

    @classmethod
    def run(cls, data, options, progress=None):
        """basel_fit_run, with progress(fraction) -> truthy to cancel. A
        KeyboardInterrupt during the run cancels it and is raised again after
        the library has stopped and cleaned up. data is a Data, or a numpy
        array or DataFrame (made into one: Data); options an Options, or a
        dict of the command line's names, {"method": "enumerate", ...}."""
        lib = library()
        if not isinstance(data, Data):
            data = Data(data)
        if not isinstance(options, Options):
            options = Options(options)
        cb = _Progress(progress)
        lib.basel_options_set_progress(options.ptr, cb.c_fn, None)
        err, out = _Error(), ctypes.c_void_p()
        try:
            with cb:
                rc = lib.basel_fit_run(ctypes.byref(out), data.ptr, options.ptr, ctypes.byref(err))
        finally:
            lib.basel_options_set_progress(options.ptr, PROGRESS_FN(), None)
        if (cb.exc is not None or cb.interrupted) and rc == OK:
            lib.basel_fit_free(out.value)  # finished before it saw the cancel
        if cb.exc is not None:
            raise cb.exc
        if cb.interrupted or rc == ECANCELLED:
            raise KeyboardInterrupt("basel: the fit was cancelled")
        _check(rc, err)
        return cls(out.value)

    @classmethod
    def from_json(cls, text, name="<json>"):
        if isinstance(text, str):
            text = text.encode("utf-8")
        err, out = _Error(), ctypes.c_void_p()
        _check(library().basel_fit_from_json(ctypes.byref(out), _b(name), text, len(text), ctypes.byref(err)), err)
        return cls(out.value)

    @classmethod
    def read_json(cls, path):
        err, out = _Error(), ctypes.c_void_p()
        _check(library().basel_fit_read_json(ctypes.byref(out), _b(os.fspath(path)), ctypes.byref(err)), err)
        return cls(out.value)

    def __reduce__(self):
        return (Fit.from_json, (self.to_json(),))

    def to_json(self):
        """FIT.json's text."""
        return _taken_string(library().basel_fit_to_json(self.ptr))

    @property
    def document(self):
        """FIT.json as a dict (parsed once)."""
        if self._doc is None:
            self._doc = json.loads(self.to_json())
        return self._doc

    def write_json(self, path):
        err = _Error()
        _check(library().basel_fit_write_json(self.ptr, _b(os.fspath(path)), ctypes.byref(err)), err)

    def write_draws(self, path):
        err = _Error()
        _check(library().basel_fit_write_draws(self.ptr, _b(os.fspath(path)), ctypes.byref(err)), err)

    def summary(self):
        """The human-readable report (basel summary)."""
        return _taken_string(library().basel_fit_summary(self.ptr))

    @property
    def method(self):
        return library().basel_fit_method(self.ptr).decode()

    @property
    def warnings(self):
        """The fit's warnings (FIT.json diagnostics.warnings: chains that
        disagree, too few effective draws, an interrupted run, ...), as the
        library words them and `basel fit` prints them."""
        lib = library()
        return [lib.basel_fit_warning(self.ptr, i).decode() for i in range(lib.basel_fit_warning_count(self.ptr))]

    @property
    def seed(self):
        return int(library().basel_fit_seed(self.ptr))

    @property
    def atoms(self):
        lib = library()
        return [lib.basel_fit_atom_name(self.ptr, j).decode() for j in range(lib.basel_fit_atom_count(self.ptr))]

    @property
    def inputs(self):
        lib = library()
        return [lib.basel_fit_input_name(self.ptr, j).decode() for j in range(lib.basel_fit_input_count(self.ptr))]

    def pip(self):
        """PIPs aligned with atoms, or None for methods without them."""
        import numpy as np
        m = ctypes.c_size_t()
        p = library().basel_fit_pip(self.ptr, ctypes.byref(m))
        return np.ctypeslib.as_array(p, (m.value,)).copy() if p and m.value else None

    def size_posterior(self):
        import numpy as np
        m = ctypes.c_size_t()
        p = library().basel_fit_size_posterior(self.ptr, ctypes.byref(m))
        return np.ctypeslib.as_array(p, (m.value,)).copy() if p and m.value else None

    def centres(self):
        """Where the fit's kernels sit, in the inputs' units: an array of
        (count, inputs), or None when it has no kernels (basel_fit_centres:
        one per atom, aligned with pip(), for the atom methods; every kept
        network's kernels for rbf and anneal)."""
        import numpy as np
        m = ctypes.c_size_t()
        p = library().basel_fit_centres(self.ptr, ctypes.byref(m))
        d = library().basel_fit_input_count(self.ptr)
        return np.ctypeslib.as_array(p, (m.value * d,)).reshape(m.value, d).copy() if p and m.value else None

    def selected(self, which):
        """Atom indices of the "hpm", "median", "prevalence" or "projection"
        model, or None (projection: Gaussian subset fits only)."""
        if which not in ("hpm", "median", "prevalence", "projection"):
            raise ValueError("selected(%r): use \"hpm\", \"median\", \"prevalence\" or \"projection\"" % (which,))
        k = ctypes.c_size_t()
        p = library().basel_fit_selected(self.ptr, _b(which), ctypes.byref(k))
        return [int(p[i]) for i in range(k.value)] if p else None

    def draws(self):
        """The kept draws as a DataFrame with the draws CSV's columns
        (docs/FIT.md, "The draws CSV"): chain (1-based), iteration (the
        draw's place in its chain, 1-based), draw (its place over all
        chains, 1-based), size, one 0/1 column per atom, the sampled
        hyperparameters, then (Gaussian fits of the subset methods under a
        prior that has them) sigma2, b_Intercept, b_<term> (0 when the
        draw's model excludes it) and log_lik; None when the fit kept
        none."""
        import numpy as np
        import pandas as pd
        lib = library()
        nd = lib.basel_fit_draw_count(self.ptr)
        if nd == 0:
            return None
        atoms = self.atoms or self.inputs
        z = np.zeros((nd, len(atoms)), dtype=np.int8)
        chain = np.empty(nd, dtype=np.int64)
        c, a, k = ctypes.c_uint(), _c_size_p(), ctypes.c_size_t()
        for i in range(nd):
            _check(lib.basel_fit_draw(self.ptr, i, ctypes.byref(c), ctypes.byref(a), ctypes.byref(k)), _Error())
            chain[i] = c.value + 1
            if k.value:
                z[i, np.ctypeslib.as_array(a, (k.value,))] = 1
        df = pd.DataFrame(z, columns=atoms)
        ns, nv = lib.basel_fit_draw_scalar_count(self.ptr), lib.basel_fit_draw_value_count(self.ptr)
        if ns:
            sc = np.empty((nd, ns))
            x = _c_double_p()
            for i in range(nd):
                _check(lib.basel_fit_draw_scalars(self.ptr, i, ctypes.byref(x)), _Error())
                sc[i] = x[:ns]
            for s in range(ns):
                df[lib.basel_fit_draw_scalar_name(self.ptr, s).decode()] = sc[:, s]
        if nv:
            vals = np.empty((nd, nv))
            for i in range(nd):
                _check(lib.basel_fit_draw_values(self.ptr, i, vals[i].ctypes.data_as(_c_double_p)), _Error())
            names = [lib.basel_fit_draw_value_name(self.ptr, v).decode() for v in range(nv)]
            df = pd.concat([df, pd.DataFrame(vals, columns=names)], axis=1)
        df.insert(0, "size", z.sum(axis=1).astype(np.int64))
        # the rows come in chain order: the iteration restarts with each chain
        start = np.r_[True, chain[1:] != chain[:-1]]
        first = np.maximum.accumulate(np.where(start, np.arange(nd), 0))
        df.insert(0, "draw", np.arange(1, nd + 1, dtype=np.int64))
        df.insert(0, "iteration", np.arange(nd, dtype=np.int64) - first + 1)
        df.insert(0, "chain", chain)
        return df

    def draws_loglik(self):
        """The kept draws' pointwise log-likelihoods (keep-draws=2) as a
        draws x training rows array, whose row sums are draws()'s log_lik
        (for arviz.from_dict(log_likelihood=...) or loo); None when the
        fit kept none."""
        import numpy as np
        lib = library()
        nd, n = lib.basel_fit_draw_count(self.ptr), lib.basel_fit_draw_loglik_count(self.ptr)
        if nd == 0 or n == 0:
            return None
        out = np.empty((nd, n))
        x = _c_double_p()
        for i in range(nd):
            _check(lib.basel_fit_draw_loglik(self.ptr, i, ctypes.byref(x)), _Error())
            out[i] = np.ctypeslib.as_array(x, (n,))
        return out

    def write_draws_loglik(self, path):
        """The pointwise log-likelihoods as CSV (basel fit --draws-loglik)."""
        err = _Error()
        _check(library().basel_fit_write_draws_loglik(self.ptr, _b(os.fspath(path)), ctypes.byref(err)), err)

    def coefficients(self):
        """The coefficient table (basel_fit_coef): (terms, targets, classes,
        values, level), values an array of rows x COEF_VALUES (NaN where a
        row has no such number), classes None unless multinomial; None when
        the fit has no table."""
        import numpy as np
        lib = library()
        n = lib.basel_fit_coef_count(self.ptr)
        if n == 0:
            return None
        values = np.empty((n, len(COEF_VALUES)))
        row = (ctypes.c_double * len(COEF_VALUES))()
        for i in range(n):
            _check(lib.basel_fit_coef(self.ptr, i, row), _Error())
            values[i] = row[:]
        terms = [lib.basel_fit_coef_term(self.ptr, i).decode() for i in range(n)]
        targets = [lib.basel_fit_coef_target(self.ptr, i).decode() for i in range(n)]
        classes = None
        if lib.basel_fit_coef_class(self.ptr, 0) is not None:
            classes = [lib.basel_fit_coef_class(self.ptr, i).decode() for i in range(n)]
        return terms, targets, classes, values, lib.basel_fit_coef_level(self.ptr)

    def coef_table(self):
        """The coefficient table as a DataFrame, one row per term and target
        (and class, multinomial): term, target, [class,] pip, mean, sd,
        cond_mean, cond_sd, lower, upper (the interval at the fit's level,
        DataFrame.attrs["level"]; `basel coef`'s CSV); None when the fit has
        no table (methods other than enumerate, bd, rj, ssvs)."""
        import pandas as pd
        table = self.coefficients()
        if table is None:
            return None
        terms, targets, classes, values, level = table
        df = pd.DataFrame(values, columns=list(COEF_VALUES))
        if classes is not None:
            df.insert(0, "class", classes)
        df.insert(0, "target", targets)
        df.insert(0, "term", terms)
        df.attrs["level"] = level
        return df

    def models(self):
        """The listed models (basel_fit_model), most probable first: a list
        of (atoms, prob, log_ml, log_bf_best), NaN where unknown."""
        lib = library()
        out = []
        a, k = _c_size_p(), ctypes.c_size_t()
        p, ml, bf = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        for i in range(lib.basel_fit_model_count(self.ptr)):
            _check(lib.basel_fit_model(self.ptr, i, ctypes.byref(a), ctypes.byref(k), ctypes.byref(p),
                                       ctypes.byref(ml), ctypes.byref(bf)), _Error())
            out.append(([int(a[j]) for j in range(k.value)], p.value, ml.value, bf.value))
        return out

    def credible_sets(self):
        """The credible sets (basel_fit_credible_set; docs/FIT.md
        "credible_sets"), one per signal: a list of (atoms, coverage,
        purity), atoms 0-based in the order added."""
        lib = library()
        out = []
        a, k = _c_size_p(), ctypes.c_size_t()
        cov, pur = ctypes.c_double(), ctypes.c_double()
        for i in range(lib.basel_fit_credible_set_count(self.ptr)):
            _check(lib.basel_fit_credible_set(self.ptr, i, ctypes.byref(a), ctypes.byref(k), ctypes.byref(cov),
                                              ctypes.byref(pur)), _Error())
            out.append(([int(a[j]) for j in range(k.value)], cov.value, pur.value))
        return out

    def predict(self, data, model=None, level=0.95, kind="new"):
        """basel_fit_predict_ex: a Pred with mean/lower/upper (regression) or
        class probabilities (classification). kind is what the interval
        covers: "new" (a new observation, the default) or "mean" (the
        regression function E[y | x], BAS's se.fit; subset methods only),
        as `basel predict --interval-kind`, or "none" (the means only, as
        `--interval none`: lower and upper are NaN), or "sd" (no interval
        either, but the predictive sds, Pred.sd(), without the quantiles:
        BASEL_INTERVAL_SD)."""
        if not isinstance(data, Data):  # an array of the fit's inputs, or a DataFrame naming them
            data = Data(data, None if hasattr(data, "columns") else self.inputs, source="X")
        kinds = {"new": 0, "mean": 1, "none": 2, "sd": 3}
        if kind not in kinds:
            raise ValueError("kind=%r: use \"new\" (a new observation), \"mean\" (the regression function), "
                             "\"none\" (no interval) or \"sd\" (no interval, but the sds)" % (kind,))
        err, out = _Error(), ctypes.c_void_p()
        _check(library().basel_fit_predict_ex(self.ptr, data.ptr, _b(model), float(level), kinds[kind],
                                              ctypes.byref(out), ctypes.byref(err)), err)
        return Pred(out.value)


class Pred(_Handle):
    """Predictions (basel_pred), read out into numpy arrays."""
    _free = "basel_pred_free"

    def rows(self):
        return library().basel_pred_rows(self.ptr)

    def classes(self):
        lib = library()
        return [lib.basel_pred_class_name(self.ptr, k).decode() for k in range(lib.basel_pred_class_count(self.ptr))]

    def intervals(self, outputs=1):
        """(mean, lower, upper), each n x outputs."""
        import numpy as np
        lib = library()
        n = self.rows()
        res = np.empty((3, n, outputs))
        m, lo, hi = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        for j in range(outputs):
            for i in range(n):
                rc = lib.basel_pred_get(self.ptr, i, j, ctypes.byref(m), ctypes.byref(lo), ctypes.byref(hi))
                if rc != OK:
                    raise BaselError("basel_pred_get(%d, %d) failed" % (i, j), rc)
                res[:, i, j] = m.value, lo.value, hi.value
        return res[0], res[1], res[2]

    def se(self):
        """n x outputs: the sd of the regression function f(x) (basel_pred_se,
        BAS's se.fit), None when the method gives none."""
        import numpy as np
        lib = library()
        if not lib.basel_pred_has_se(self.ptr):
            return None
        n, c = self.rows(), lib.basel_pred_output_count(self.ptr)
        out = np.empty((n, c))
        v = ctypes.c_double()
        for j in range(c):
            for i in range(n):
                if lib.basel_pred_se(self.ptr, i, j, ctypes.byref(v)) != OK:
                    raise BaselError("basel_pred_se(%d, %d) failed" % (i, j))
                out[i, j] = v.value
        return out

    def sd(self, of="new"):
        """n x outputs: the predictive sd (basel_pred_sd) of a new observation
        (of="new") or of the regression function f(x) (of="mean"): a
        model's Student-t sd, or the exact sd of the model average's
        mixture of t's (anneal, rbf: the networks'; smc: the particles'
        normal mixture); None when the predictions have none (the mixture
        classifier; priors mixing over g; kind "none" for a model
        average)."""
        import numpy as np
        if of not in ("new", "mean"):
            raise ValueError("of=%r: use \"new\" (a new observation) or \"mean\" (the regression function)" % (of,))
        lib = library()
        if not lib.basel_pred_has_sd(self.ptr):
            return None
        n, c = self.rows(), lib.basel_pred_output_count(self.ptr)
        out = np.empty((n, c))
        y, f = ctypes.c_double(), ctypes.c_double()
        for j in range(c):
            for i in range(n):
                if lib.basel_pred_sd(self.ptr, i, j, ctypes.byref(y), ctypes.byref(f)) != OK:
                    raise BaselError("basel_pred_sd(%d, %d) failed" % (i, j))
                out[i, j] = y.value if of == "new" else f.value
        return out

    def probabilities(self):
        """n x classes probabilities (columns in the order of classes())."""
        import numpy as np
        lib = library()
        n, c = self.rows(), lib.basel_pred_class_count(self.ptr)
        out = np.empty((n, c))
        q = ctypes.c_double()
        for i in range(n):
            for k in range(c):
                if lib.basel_pred_prob(self.ptr, i, k, ctypes.byref(q), None) != OK:
                    raise BaselError("basel_pred_prob(%d, %d) failed" % (i, k))
                out[i, k] = q.value
        return out
