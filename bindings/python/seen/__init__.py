"""seen: has this been seen before? Blocked Bloom filters, exposure windows and the
exposure store, and SimHash near-duplicate detection from libseen, through cffi.

    >>> import seen
    >>> f = seen.BloomFilter(expected_items=1000, fpr=0.01)
    >>> f.add("alice")  # False: it was not there before
    False
    >>> "alice" in f
    True
    >>> shown = seen.Window.last_items(500, fpr=0.01)
    >>> shown.add_many([1, 2, 3])
    >>> 3 in shown, 4 in shown
    (True, False)
    >>> index = seen.SimHashIndex(k=3)
    >>> index.add(1, seen.simhash("The quick brown fox jumps over the lazy dog."))
    >>> index.query(seen.simhash("the quick brown fox jumps over the lazy dog"))
    [(1, 0)]
"""
from ._native import lib as _lib
from ._version import __version__
from .bloom import BloomFilter
from .minhash import MinHashIndex, minhash, similarity
from .near_duplicates import (Fingerprint, IdfTable, QueryResults, SimHashIndex,
                              TextFingerprints, exact_fingerprint, fingerprint, hamming, simhash,
                              simhash_features, simhash_many)
from .store import ExposureStore, StoreSaturation, StoreStats
from .window import Window, WindowInfo, WindowSpec, WindowUsage
from .counting import CountingFilter
from .scalable import ScalableFilter, ScalableInfo
from .sizing import DEFAULT_FPR, Sizing, predict_fpr, size_for
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
    NotFoundError,
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
    "Sizing",
    "DEFAULT_FPR",
    "size_for",
    "predict_fpr",
    "CountingFilter",
    "ScalableFilter",
    "ScalableInfo",
    "Window",
    "WindowSpec",
    "WindowInfo",
    "WindowUsage",
    "ExposureStore",
    "StoreSaturation",
    "StoreStats",
    "simhash",
    "simhash_many",
    "simhash_features",
    "fingerprint",
    "exact_fingerprint",
    "hamming",
    "Fingerprint",
    "TextFingerprints",
    "IdfTable",
    "SimHashIndex",
    "QueryResults",
    "minhash",
    "similarity",
    "MinHashIndex",
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
    "NotFoundError",
    "library_version",
    "__version__",
]
