"""The exceptions of seen: one class per seen_status, each carrying the message the failed
call reported (docs/errors.md): to its handle, or to the seen_error of a call without one.

Every class derives from SeenError, and also from the builtin exception a Python caller
would expect (ValueError for bad input, OSError for I/O, MemoryError, KeyError for a remove
of an absent key), so both
`except seen.SeenError` and `except ValueError` work.
"""
import threading
from typing import Any, Dict, NoReturn, Type

from ._native import ffi, lib


class SeenError(Exception):
    """A failed call into libseen: `status` is the seen_status number, `status_name` its
    name (e.g. "SEEN_ERR_TRUNCATED") and `detail` the library's message."""

    def __init__(self, status: int, status_name: str, detail: str) -> None:
        super().__init__(f"{detail} ({status_name})" if detail else status_name)
        self.status = status
        self.status_name = status_name
        self.detail = detail


class InvalidArgumentError(SeenError, ValueError):
    """An argument the library rejects: fpr outside (0, 1), a closed filter, bad offsets, a
    time past 2**32 - 1..."""


class NoMemoryError(SeenError, MemoryError):
    """An allocation or mapping failed."""


class SeenIOError(SeenError, OSError):
    """Opening, reading, writing, syncing or renaming a file failed."""


class FormatError(SeenError, ValueError):
    """Bytes or a file that are not a valid seen filter, window or store; the subclass says
    why."""


class BadMagicError(FormatError):
    """The input is not a seen file."""


class UnsupportedVersionError(FormatError):
    """A major format version this build cannot read."""


class TruncatedError(FormatError):
    """The input ends before its declared size."""


class BadChecksumError(FormatError):
    """The header or payload checksum does not match."""


class InconsistentError(FormatError):
    """Sizes or parameters that do not add up."""


class WrongKindError(FormatError):
    """A valid seen file of another kind than expected (e.g. a window read as a filter)."""


class TooLargeError(SeenError, ValueError):
    """An absurd size, more than the library will allocate: asked for (expected_items and an
    fpr no filter reaches, such as 1e-80) or read from a file."""


class ReadOnlyError(SeenError):
    """A write to a filter opened or viewed read-only, or to a store opened read-only."""


class IncompatibleError(SeenError, ValueError):
    """A merge of filters with different size, k or seed."""


class BufferTooSmallError(SeenError):
    """A caller buffer cannot hold the result."""


class InternalError(SeenError):
    """A bug in libseen: please report it with the message."""


class NotFoundError(SeenError, KeyError):
    """A remove of a key that was certainly never added (or already removed as often as
    added): nothing changed. A KeyError, as for set.remove."""

    # KeyError would quote the message.
    __str__ = Exception.__str__


# Keyed by the C enum's values, which the ABI freezes.
_BY_STATUS: Dict[int, Type[SeenError]] = {
    lib.SEEN_ERR_INVALID_ARGUMENT: InvalidArgumentError,
    lib.SEEN_ERR_NO_MEMORY: NoMemoryError,
    lib.SEEN_ERR_IO: SeenIOError,
    lib.SEEN_ERR_BAD_MAGIC: BadMagicError,
    lib.SEEN_ERR_UNSUPPORTED_VERSION: UnsupportedVersionError,
    lib.SEEN_ERR_TRUNCATED: TruncatedError,
    lib.SEEN_ERR_BAD_CHECKSUM: BadChecksumError,
    lib.SEEN_ERR_INCONSISTENT: InconsistentError,
    lib.SEEN_ERR_WRONG_KIND: WrongKindError,
    lib.SEEN_ERR_TOO_LARGE: TooLargeError,
    lib.SEEN_ERR_READ_ONLY: ReadOnlyError,
    lib.SEEN_ERR_INCOMPATIBLE: IncompatibleError,
    lib.SEEN_ERR_BUFFER_TOO_SMALL: BufferTooSmallError,
    lib.SEEN_ERR_INTERNAL: InternalError,
    lib.SEEN_ERR_NOT_FOUND: NotFoundError,
}


_per_thread = threading.local()


def thread_slot(name: str, ctype: str) -> Any:
    """This thread's own cdata of ctype, made at its first use: cffi releases the GIL during
    a C call, so threads need their own, and allocating one per call costs as much as the
    call."""
    try:
        return getattr(_per_thread, name)
    except AttributeError:
        setattr(_per_thread, name, ffi.new(ctype))
        return getattr(_per_thread, name)


def error_slot() -> Any:
    """This thread's seen_error, passed to the C calls that have no handle: filled only when
    the call fails, and read right after by the same thread."""
    return thread_slot("error", "seen_error*")


# Each kind's seen_<kind>_last_error, by the C type of its handles: every kind's table of C
# functions registers its own (_files.CFunctions).
_LAST_ERROR: Dict[Any, Any] = {}


def read_errors_with(handle_type: str, last_error: Any) -> None:
    """Reads the message of a failed call on a handle of handle_type (e.g. "seen_bloom*")
    with last_error (seen_bloom_last_error)."""
    _LAST_ERROR[ffi.typeof(handle_type)] = last_error


def _message(source: Any) -> str:
    """The message of a failed call: source is the seen_error it filled, or the handle it was
    called on (whose kind's last-error reader fills one); a closed object's handle is NULL,
    which C refused as such."""
    if source == ffi.NULL:
        return "the handle is NULL: the object is closed"
    if ffi.typeof(source) is not _ERROR_TYPE:
        handle, source = source, ffi.new("seen_error*")
        _LAST_ERROR[ffi.typeof(handle)](handle, source)
    return str(ffi.string(source.message).decode("utf-8", "replace"))


_ERROR_TYPE = ffi.typeof("seen_error*")


def raise_status(status: int, source: Any) -> NoReturn:
    """Raises the exception of a failed status, with the message the call reported to source
    (see _message); no thread-local state is read."""
    name = ffi.string(lib.seen_status_string(status)).decode()
    raise _BY_STATUS.get(status, SeenError)(status, name, _message(source))


def invalid_argument(detail: str) -> NoReturn:
    """Raises InvalidArgumentError for an argument refused on the Python side, as the library
    would have."""
    raise InvalidArgumentError(lib.SEEN_ERR_INVALID_ARGUMENT, "SEEN_ERR_INVALID_ARGUMENT", detail)


def check(status: int, source: Any) -> None:
    """Raises unless status is SEEN_OK; source as for raise_status."""
    if status != lib.SEEN_OK:
        raise_status(status, source)


def call(function: Any, *args: Any) -> None:
    """Calls a C function that has no handle, with this thread's seen_error as its last
    argument, and raises if it fails. An int outside its C type (a negative capacity or seed)
    is an InvalidArgumentError, as every other bad argument, not cffi's OverflowError."""
    err = error_slot()
    try:
        status = function(*args, err)
    except OverflowError as e:
        invalid_argument(f"{function.__name__}: an argument is outside its C type ({e})")
    check(status, err)
