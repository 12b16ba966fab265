"""CountingFilter: libseen's counting filter, a Bloom filter that can forget keys.

Every bit of the blocked Bloom filter is a 4-bit saturating counter (docs/counting.md): the
same blocks, k, answers and false-positive rate as a BloomFilter of the same expected_items
and fpr, in 5x the memory. The counters live in C memory; this object holds the handle and a
writer lock, because in C adds, removes, clear and sync need exclusive access (and stats,
serialize and save must not run beside a writer), while queries may run beside that one
writer: `in` and contains_many take no lock. `in` is answered by the C base class
SingleKeyProbe, as BloomFilter's is (_single_key.py).
"""
import threading
from typing import Any, Optional

from . import _batches, _files, _handle, _keys
from ._counts import rounded_count
from ._single_key import ProbedKeys
from ._keys import Key
from ._native import ffi, lib
from .errors import check, raise_status
from .sizing import DEFAULT_FPR

_NOT_FOUND = lib.SEEN_ERR_NOT_FOUND

# Bound once: the single-key paths are dominated by attribute lookups otherwise.
_test_u64 = lib.seen_counting_contains_one_u64
_test_key = lib.seen_counting_contains_one_key
_put_u64 = lib.seen_counting_add_one_u64
_put_key = lib.seen_counting_add_one_key
_delete_u64 = lib.seen_counting_remove_one_u64
_delete_key = lib.seen_counting_remove_one_key


class CountingFilter(ProbedKeys, _batches.UpdatesByBatches, _files.KeyedBytes, _files.Views, _files.Opens,
                     _files.Syncs):
    """A Bloom filter of str (as UTF-8), bytes and int (u64) keys that can also remove them:
    no false negatives for keys added and not removed, false positives at about `fpr` once
    `expected_items` keys are in.

    The remove rule: remove only keys you added. A key certainly never added is refused
    (NotFoundError, nothing changes); a never-added key that looks present (a false positive)
    cannot be told apart, and removing it may make another key a false negative. A key added
    twice must be removed twice. A closed filter raises InvalidArgumentError on every call.

    Its bytes and files are kind 2 of docs/FORMAT.md. open(read_only=True) queries only the
    presence bits, a fifth of the file; open(read_only=False) maps the file and writes
    changes back to it on sync() and close(), which no other thread may race with a query.
    """

    __slots__ = ("_h", "_borrowed", "_lock", "_key")
    _c = _files.CFunctions.of("counting", lib.SEEN_OPEN_WRITE_IN_PLACE)
    _counting = True
    _tests = (_test_u64, _test_key)

    def __init__(self, expected_items: int, fpr: float = DEFAULT_FPR, seed: int = 0,
                 key: Optional[bytes] = None) -> None:
        """A new, empty filter with the blocks and k of BloomFilter(expected_items, fpr). A
        key (16 to 64 secret bytes) makes it keyed, as BloomFilter's does (docs/SECURITY.md):
        its bytes do not hold the key and open only with it."""
        self._own(_handle.create_keyed(lib.seen_counting_create, lib.seen_counting_create_keyed,
                                       "seen_counting*", expected_items, fpr, seed, key),
                  key=None if key is None else bytes(key))

    def _own(self, handle: Any, borrowed: Any = None, key: Optional[bytes] = None) -> None:
        self._h = ffi.gc(handle, lib.seen_counting_free)
        self._bind(handle)
        self._key = key
        # A view's buffer must outlive the handle that reads it.
        self._borrowed = borrowed
        # Held by every call that changes or reads all counters; queries run without it.
        self._lock = threading.Lock()

    # --- single keys ---------------------------------------------------------------------

    def add(self, key: Key) -> None:
        """Adds one key (once more, if it is already in: each add needs its remove)."""
        with self._lock:
            status = _keys.call(_put_u64, _put_key, self._h, key)
        if status:
            raise_status(status, self._h)

    def remove(self, key: Key) -> None:
        """Removes one key that was added. NotFoundError (a KeyError) if it certainly was
        not: then nothing changed."""
        if not self._delete(key):
            raise_status(_NOT_FOUND, self._h)

    def discard(self, key: Key) -> bool:
        """Removes one key that was added, if it may be in: True if it was removed, False if
        it certainly was not in (nothing changed)."""
        return self._delete(key)

    def _delete(self, key: Key) -> bool:
        with self._lock:
            status = _keys.call(_delete_u64, _delete_key, self._h, key)
            if status == _NOT_FOUND:
                return False
        if status:
            raise_status(status, self._h)
        return True

    # --- batches -------------------------------------------------------------------------

    def add_many(self, keys: Any) -> None:
        """Adds a batch, in order (a key repeated counts each time): a uint64 buffer (numpy
        array, array('Q')) used in place, or a list (or any iterable) of ints, or of
        str/bytes."""
        b = _batches.batch(keys)
        with self._lock:
            status = _batches.call(b, lib.seen_counting_add_u64, lib.seen_counting_add_keys,
                                   self._h)
        check(status, self._h)

    def remove_many(self, keys: Any) -> Any:
        """Removes a batch (as for add_many) of keys that were added, and says which were
        removed: a numpy bool array (or a bytearray of 0/1 without numpy), False where a key
        was certainly not in and nothing changed for it. Never raises NotFoundError: the
        flags say it."""
        b = _batches.batch(keys)
        results, out = _batches.new_results(b.n)
        with self._lock:
            status = _batches.call(b, lib.seen_counting_remove_u64, lib.seen_counting_remove_keys,
                                   self._h, out)
        if status != _NOT_FOUND:
            check(status, self._h)
        return results

    def contains_many(self, keys: Any) -> Any:
        """One answer per key of a batch (as for add_many): a numpy bool array if numpy is
        installed, else a bytearray of 0/1."""
        b = _batches.batch(keys)
        results, out = _batches.new_results(b.n)
        check(_batches.call(b, lib.seen_counting_contains_u64, lib.seen_counting_contains_keys,
                            self._h, out), self._h)
        return results

    def clear(self) -> None:
        """Removes every key (every counter back to zero)."""
        with self._lock:
            check(lib.seen_counting_clear(self._h), self._h)

    def copy(self) -> "CountingFilter":
        """A writable copy in memory (also of a read-only or mapped filter)."""
        return CountingFilter.from_bytes(self.to_bytes(), key=self._key)

    # --- estimates and parameters --------------------------------------------------------

    def __len__(self) -> int:
        """The keys in (adds minus removes), from the counters: exact while no counter
        saturated (reads every counter)."""
        return rounded_count(self._stats().approx_items)

    def __bool__(self) -> bool:
        """False only while every counter is zero (reads every counter)."""
        return float(self._stats().fill_ratio) > 0

    @property
    def fpr(self) -> float:
        """The target false-positive rate given at creation."""
        return float(self._params().target_fpr)

    @property
    def expected_fpr(self) -> float:
        """The false-positive rate predicted for the filter as it is now (reads every
        counter)."""
        return float(self._stats().predicted_fpr)

    @property
    def expected_items(self) -> int:
        return int(self._params().expected_items)

    @property
    def saturated(self) -> int:
        """Counters stuck at their maximum (15): they never decrement, so keys on them all
        can never be forgotten (reads every counter)."""
        return int(self._stats().saturated)

    @property
    def fill_ratio(self) -> float:
        """The fraction of counters that are not zero (reads every counter)."""
        return float(self._stats().fill_ratio)

    @property
    def size_bytes(self) -> int:
        """Bytes of state: 320 per 64-byte block of the Bloom filter (64 bytes of presence
        bits and 256 of counters), 5x a BloomFilter's."""
        return int(self._params().bytes)

    @property
    def blocks(self) -> int:
        return int(self._params().blocks)

    @property
    def k(self) -> int:
        """Counters per key, all in one block."""
        return int(self._params().k)

    @property
    def counter_bits(self) -> int:
        """Bits per counter: 4."""
        return int(self._params().counter_bits)

    @property
    def seed(self) -> int:
        return int(self._params().seed)

    @property
    def read_only(self) -> bool:
        """True for CountingFilter.open(read_only=True) and CountingFilter.view: adds and
        removes then fail with ReadOnlyError."""
        return bool(self._params().read_only)

    def _params(self) -> Any:
        params = _handle.sized("seen_counting_info")
        check(lib.seen_counting_get_info(self._h, params), self._h)
        return params

    def _stats(self) -> Any:
        stats = _handle.sized("seen_counting_stats")
        with self._lock:
            check(lib.seen_counting_get_stats(self._h, stats), self._h)
        return stats

    def _describe(self) -> str:
        return (f"CountingFilter(expected_items={self.expected_items}, fpr={self.fpr}, "
                f"seed={self.seed}) with size_bytes={self.size_bytes}, k={self.k}")
