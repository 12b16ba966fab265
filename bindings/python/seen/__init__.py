"""seen: has this been seen before? Blocked Bloom filters, exposure windows and the
exposure store from libseen, through cffi.

    >>> import seen
    >>> f = seen.BloomFilter(expected_items=1000, fpr=0.01)
    >>> f.add("alice")
    >>> "alice" in f
    True
    >>> shown = seen.Window.last_items(500, fpr=0.01)
    >>> shown.add_many([1, 2, 3])
    >>> 3 in shown, 4 in shown
    (True, False)
"""
from ._native import lib as _lib
from .bloom import BloomFilter
from .store import ExposureStore, StoreStats
from .window import Window, WindowInfo, WindowSpec
from .errors import (
    BadChecksumError,
    BadMagicError,
    BufferTooSmallError,
    FormatError,
    IncompatibleError,
    InconsistentError,
    InternalError,
    InvalidArgumentError,
    NoMemoryError,
    ReadOnlyError,
    SeenError,
    SeenIOError,
    TooLargeError,
    TruncatedError,
    UnsupportedVersionError,
    WrongKindError,
)

# The version of the libseen actually loaded, as "major.minor.patch".
_number = _lib.seen_version_number()
library_version = f"{_number // 10000}.{_number // 100 % 100}.{_number % 100}"

__all__ = [
    "BloomFilter",
    "Window",
    "WindowSpec",
    "WindowInfo",
    "ExposureStore",
    "StoreStats",
    "SeenError",
    "InvalidArgumentError",
    "NoMemoryError",
    "SeenIOError",
    "FormatError",
    "BadMagicError",
    "UnsupportedVersionError",
    "TruncatedError",
    "BadChecksumError",
    "InconsistentError",
    "WrongKindError",
    "TooLargeError",
    "ReadOnlyError",
    "IncompatibleError",
    "BufferTooSmallError",
    "InternalError",
    "library_version",
]
