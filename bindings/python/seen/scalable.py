"""ScalableFilter: libseen's scalable filter, a Bloom filter that grows past its capacity.

Blocked Bloom sub-filters (docs/counting.md): when the newest holds its capacity, the next
is added, `growth` times larger at `tightening` times the false-positive rate, so the total
rate stays within the bound the filter was created with at any size. The sub-filters live in
C memory; this object holds the handle and a lock, because in C an add must not run beside
any other call. A read-only filter (open(read_only=True)) cannot change, so its queries run
without the lock, from any number of threads.
"""
import threading
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Iterable, Optional

from . import _batches, _files, _handle, _keys
from ._figure import figure
from ._keys import Key
from ._native import ffi, lib
from .errors import call, check, invalid_argument, raise_status
from .sizing import DEFAULT_FPR

_test_u64 = lib.seen_scalable_contains_one_u64
_test_key = lib.seen_scalable_contains_one_key
_put_u64 = lib.seen_scalable_add_one_u64
_put_key = lib.seen_scalable_add_one_key

# What the figures of a ScalableFilter read.
_INFO = attrgetter("info")


@dataclass(frozen=True)
class ScalableInfo:
    """What a scalable filter holds now: the distinct keys that changed it, its sub-filters,
    their bytes and the false-positive rate they predict together (at most fpr), beside the
    options it was created with."""

    items: int
    subfilters: int
    size_bytes: int
    predicted_fpr: float
    read_only: bool
    initial_capacity: int
    fpr: float
    growth: float
    tightening: float
    seed: int


class ScalableFilter(_files.Serialized, _files.Files):
    """A Bloom filter of str (as UTF-8), bytes and int (u64) keys that grows as keys come:
    no false negatives, and a total false-positive rate within `fpr` at any size.

    The first sub-filter holds initial_capacity keys; each next one holds `growth` times more
    at `tightening` times the rate. A query asks every sub-filter, so start near the expected
    size. At most 64 sub-filters (then TooLargeError). A closed filter raises
    InvalidArgumentError on every call.

    Its bytes and files are kind 3 of docs/FORMAT.md. open(read_only=False) reads a private
    copy that may grow: the file changes only on the next save(), and close() loses what was
    not saved.
    """

    __slots__ = ("_h", "_lock", "_key")
    _c = _files.CFunctions(
        "seen_scalable*", lib.seen_scalable_free, lib.seen_scalable_last_error,
        serialize=lib.seen_scalable_serialize, deserialize=lib.seen_scalable_deserialize,
        deserialize_keyed=lib.seen_scalable_deserialize_keyed, save=lib.seen_scalable_save,
        open=lib.seen_scalable_open, open_keyed=lib.seen_scalable_open_keyed)

    def __init__(self, initial_capacity: int, fpr: float = DEFAULT_FPR, growth: float = 2,
                 tightening: float = 0.5, seed: int = 0, key: Optional[bytes] = None) -> None:
        """A new filter with one empty sub-filter of initial_capacity keys (>= 1); fpr in
        (0, 1) bounds the total rate; growth in [1, 64]; tightening in (0, 1). A key (16 to
        64 secret bytes) makes every sub-filter keyed (docs/SECURITY.md): its bytes do not
        hold the key and open only with it."""
        # The C API reads 0 as "the default": refuse it here rather than surprise.
        for name, value in (("growth", growth), ("tightening", tightening)):
            if value == 0:
                invalid_argument(f"{name} must not be 0")
        opts = ffi.new("seen_scalable_options*", {
            "size": ffi.sizeof("seen_scalable_options"),
            "initial_capacity": initial_capacity,
            "fpr": fpr,
            "growth": growth,
            "tightening": tightening,
            "seed": seed,
        })
        key_bytes = ffi.from_buffer("uint8_t[]", key) if key is not None else ffi.NULL
        opts.key, opts.key_len = key_bytes, 0 if key is None else len(key)
        out = ffi.new("seen_scalable**")
        call(lib.seen_scalable_create, opts, out)
        self._own(out[0], key=None if key is None else bytes(key))

    def _own(self, handle: Any, borrowed: Any = None, key: Optional[bytes] = None) -> None:
        self._h = ffi.gc(handle, self._c.free)  # borrowed: it has no view
        self._key = key
        self._lock = _files.NO_LOCK  # no other thread has it yet
        self._lock = _files.NO_LOCK if self.info.read_only else threading.Lock()

    # --- single keys ---------------------------------------------------------------------

    def add(self, key: Key) -> bool:
        """Adds one key; returns True if it looked present already (then nothing changes),
        False if it is certainly new (test-and-add, as pybloom-live's add does)."""
        was_present = _handle.was_present_slot()
        with self._lock:
            status = _keys.call(_put_u64, _put_key, self._h, key, was_present)
        if status:
            raise_status(status, self._h)
        return bool(was_present[0])

    def __contains__(self, key: object) -> bool:
        """True if key may have been added (in any sub-filter); False if it certainly was
        not."""
        with self._lock:
            found = _keys.call(_test_u64, _test_key, self._h, key)
        if found < 0:
            raise_status(lib.SEEN_ERR_INVALID_ARGUMENT, self._h)
        return found == 1

    # --- batches -------------------------------------------------------------------------

    def add_many(self, keys: Any) -> None:
        """Adds a batch, in order, growing as needed: a uint64 buffer (numpy array,
        array('Q')) used in place, or a list (or any iterable) of ints, or of str/bytes.
        Past 64 sub-filters TooLargeError (the keys before stay added)."""
        b = _batches.batch(keys)
        with self._lock:
            status = _batches.call(b, lib.seen_scalable_add_u64, lib.seen_scalable_add_keys,
                                   self._h)
        check(status, self._h)

    def update(self, *iterables: Iterable[Key]) -> None:
        """Adds every key of every iterable, as set.update does (see BloomFilter.update)."""
        _batches.update(self.add_many, iterables)

    def contains_many(self, keys: Any) -> Any:
        """One answer per key of a batch (as for add_many), over every sub-filter: a numpy
        bool array if numpy is installed, else a bytearray of 0/1."""
        b = _batches.batch(keys)
        results, out = _batches.new_results(b.n)
        with self._lock:
            status = _batches.call(b, lib.seen_scalable_contains_u64,
                                   lib.seen_scalable_contains_keys, self._h, out)
        check(status, self._h)
        return results

    def copy(self) -> "ScalableFilter":
        """A writable copy in memory (also of a read-only filter)."""
        return ScalableFilter.from_bytes(self.to_bytes(), key=self._key)

    # --- what it holds -------------------------------------------------------------------

    @property
    def info(self) -> ScalableInfo:
        """items, subfilters, size_bytes, predicted_fpr, read_only and the creation options,
        read at once."""
        info = _handle.sized("seen_scalable_info")
        with self._lock:
            check(lib.seen_scalable_get_info(self._h, info), self._h)
        return ScalableInfo(
            items=int(info.items), subfilters=int(info.subfilters),
            size_bytes=int(info.bytes), predicted_fpr=float(info.predicted_fpr),
            read_only=bool(info.read_only), initial_capacity=int(info.initial_capacity),
            fpr=float(info.fpr), growth=float(info.growth),
            tightening=float(info.tightening), seed=int(info.seed))

    def __len__(self) -> int:
        """The distinct keys added: those that changed the filter (low by the false positives
        met while adding)."""
        return self.info.items

    def __bool__(self) -> bool:
        return self.info.items > 0

    subfilters = figure(_INFO, int, "Sub-filters so far (1 to 64): a query asks each.")
    fpr = figure(_INFO, float, "The bound on the total false-positive rate, given at creation.")
    expected_fpr = figure(_INFO, float, "The false-positive rate predicted for the filter as it "
                          "is now: the sum of the sub-filters' rates at their loads, at most fpr.",
                          field="predicted_fpr")
    initial_capacity = figure(_INFO, int)
    growth = figure(_INFO, float, "The capacity ratio of consecutive sub-filters.")
    tightening = figure(_INFO, float, "The false-positive-rate ratio of consecutive sub-filters.")
    size_bytes = figure(_INFO, int, "Bytes of every sub-filter's blocks.")
    seed = figure(_INFO, int)
    read_only = figure(_INFO, bool, "True for ScalableFilter.open(read_only=True): adds then fail "
                       "with ReadOnlyError.")

    def _describe(self) -> str:
        i = self.info
        return (f"ScalableFilter(initial_capacity={i.initial_capacity}, fpr={i.fpr}, "
                f"growth={i.growth}, tightening={i.tightening}, seed={i.seed}) with "
                f"{i.items} items in {i.subfilters} sub-filters, size_bytes={i.size_bytes}")
