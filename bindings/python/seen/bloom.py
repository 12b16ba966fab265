"""BloomFilter: a set-like Python face on libseen's blocked Bloom filter.

The filter's bits live in C memory (allocated, mapped from a file, or borrowed from a
buffer); this object holds only the handle. cffi releases the GIL around every C call, so
threads may add and test one filter at once; close() needs exclusive access, as in C. The
single-key `in` and `add` are answered by the C base class SingleKeyProbe instead, which keeps
the GIL for their few nanoseconds of work (_single_key.py).
"""
from typing import Any, Optional

from . import _batches, _files, _handle, _keys
from ._counts import rounded_count
from ._single_key import ProbedKeys
from ._keys import Key
from ._native import ffi, lib
from .errors import check, raise_status
from .sizing import DEFAULT_FPR

# Bound once: the single-key paths are dominated by attribute lookups otherwise.
_test_u64 = lib.seen_bloom_contains_one_u64
_test_key = lib.seen_bloom_contains_one_key
_put_u64 = lib.seen_bloom_add_one_u64
_put_key = lib.seen_bloom_add_one_key


class BloomFilter(ProbedKeys, _batches.UpdatesByBatches, _files.KeyedBytes, _files.Views,
                  _files.Opens, _files.Syncs):
    """A Bloom filter of str (as UTF-8), bytes and int (u64) keys: no false negatives, and
    false positives at about `fpr` once `expected_items` keys are in.

    Keys hash with the public `seed` (filters of one seed merge and rebuild byte for byte),
    or, given `key` (16 to 64 secret bytes), with SipHash-1-3 under it: then whoever chooses
    the keys cannot aim them at the filter without the secret (docs/SECURITY.md). A keyed
    filter's bytes do not hold the key and open only with it.

    Its bytes and files are kind 1 of docs/FORMAT.md. open(read_only=False) maps the file and
    writes changes back to it on sync() and close(). A closed filter has a NULL handle: every
    call then fails with InvalidArgumentError.
    """

    __slots__ = ("_h", "_borrowed")
    _c = _files.CFunctions.of("bloom", lib.SEEN_OPEN_WRITE_IN_PLACE)
    _counting = False
    _tests = (_test_u64, _test_key)

    def __init__(self, expected_items: int, fpr: float = DEFAULT_FPR, seed: int = 0,
                 key: Optional[bytes] = None) -> None:
        self._own(_handle.create_keyed(lib.seen_bloom_create, lib.seen_bloom_create_keyed, "seen_bloom*",
                                       expected_items, fpr, seed, key))

    def _own(self, handle: Any, borrowed: Any = None, key: Optional[bytes] = None) -> None:
        self._h = ffi.gc(handle, lib.seen_bloom_free)
        self._bind(handle)
        self._borrowed = borrowed  # key: the handle knows it is keyed, and copies in C

    # --- single keys ---------------------------------------------------------------------

    # add(key) -> bool: the C base's test-and-add (_probe.c), without a Python frame.
    add = ProbedKeys._add_one

    def _add_other(self, key: Key) -> bool:
        """add for the keys the C base leaves to cffi: other key types, a closed filter."""
        was_present = _handle.was_present_slot()
        status = _keys.call(_put_u64, _put_key, self._h, key, was_present)
        if status:
            raise_status(status, self._h)
        return bool(was_present[0])

    # --- batches -------------------------------------------------------------------------

    def add_many(self, keys: Any) -> None:
        """Adds a batch: a uint64 buffer (numpy array, array('Q')) used in place, or a list
        (or any iterable) of ints, or of str/bytes."""
        b = _batches.batch(keys)
        check(_batches.call(b, lib.seen_bloom_add_u64, lib.seen_bloom_add_keys, self._h), self._h)

    def contains_many(self, keys: Any) -> Any:
        """One answer per key of a batch (as for add_many): a numpy bool array if numpy is
        installed, else a bytearray of 0/1."""
        b = _batches.batch(keys)
        results, out = _batches.new_results(b.n)
        check(_batches.call(b, lib.seen_bloom_contains_u64, lib.seen_bloom_contains_keys,
                            self._h, out), self._h)
        return results

    # --- merging -------------------------------------------------------------------------

    def __ior__(self, other: "BloomFilter") -> "BloomFilter":
        """Adds every key of other (same size, k and seed, else IncompatibleError)."""
        if not isinstance(other, BloomFilter):
            return NotImplemented
        check(lib.seen_bloom_merge(self._h, other._h), self._h)
        return self

    def __or__(self, other: "BloomFilter") -> "BloomFilter":
        """A new filter holding the keys of both."""
        if not isinstance(other, BloomFilter):
            return NotImplemented
        union = self.copy()
        union |= other
        return union

    def union(self, *others: "BloomFilter") -> "BloomFilter":
        """A new filter holding the keys of this one and of every other, as set.union."""
        result = self.copy()
        for other in others:
            result |= other
        return result

    # Intersection and subset order work on the bits, so they are approximate, each in a
    # stated direction: never a false negative, as everywhere in seen.

    def __iand__(self, other: "BloomFilter") -> "BloomFilter":
        """Keeps the bits both filters have (same size, k and seed, else IncompatibleError).
        Every key added to both still looks present; a key of one alone may too, more often
        than a filter built from the common keys would say (len is approximate upward)."""
        if not isinstance(other, BloomFilter):
            return NotImplemented
        check(lib.seen_bloom_intersect(self._h, other._h), self._h)
        return self

    def __and__(self, other: "BloomFilter") -> "BloomFilter":
        """A new filter of the bits both have (see &=)."""
        if not isinstance(other, BloomFilter):
            return NotImplemented
        result = self.copy()
        result &= other
        return result

    def intersection(self, *others: "BloomFilter") -> "BloomFilter":
        """A new filter of the bits all have (see &=), as set.intersection."""
        result = self.copy()
        for other in others:
            result &= other
        return result

    def issuperset(self, other: "BloomFilter") -> bool:
        """Whether every bit of other is set here, so every key other holds looks present
        here. False is certain (some key of other is not here); True may be wrong, as a
        query may. Same size, k and seed, else IncompatibleError. Reads both filters."""
        covers = ffi.new("int*")
        check(lib.seen_bloom_covers(self._h, other._h, covers), self._h)
        return bool(covers[0])

    def issubset(self, other: "BloomFilter") -> bool:
        """other.issuperset(self): True may be wrong, False is certain."""
        return other.issuperset(self)

    def __le__(self, other: "BloomFilter") -> bool:
        if not isinstance(other, BloomFilter):
            return NotImplemented
        return self.issubset(other)

    def __ge__(self, other: "BloomFilter") -> bool:
        if not isinstance(other, BloomFilter):
            return NotImplemented
        return self.issuperset(other)

    def __eq__(self, other: object) -> bool:
        """Equal filters have the same parameters and the same bits, so they answer every
        query alike and their files are byte-identical. Reads both filters (O(size))."""
        if not isinstance(other, BloomFilter):
            return NotImplemented
        return self.to_bytes() == other.to_bytes()

    # Mutable: equal filters need not stay equal, so they have no hash.
    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> "BloomFilter":
        """A writable copy in memory (also of a read-only or mapped filter, and of its key)."""
        out = ffi.new("seen_bloom**")
        check(lib.seen_bloom_copy(self._h, out), self._h)
        return BloomFilter._adopt(out)

    def clear(self) -> None:
        """Removes every key. Not safe while other threads use the filter."""
        check(lib.seen_bloom_clear(self._h), self._h)

    # --- estimates and parameters --------------------------------------------------------

    def __len__(self) -> int:
        """The number of distinct keys added, estimated from the fill (reads the filter)."""
        return rounded_count(self._stats().approx_items)

    def __bool__(self) -> bool:
        """False only while no bit is set (reads the filter)."""
        return float(self._stats().fill_ratio) > 0

    @property
    def fpr(self) -> float:
        """The target false-positive rate given at creation."""
        return float(self._params().target_fpr)

    @property
    def expected_fpr(self) -> float:
        """The false-positive rate predicted for the filter as it is now (reads the filter)."""
        return float(self._stats().predicted_fpr)

    @property
    def expected_items(self) -> int:
        return int(self._params().expected_items)

    @property
    def size_bytes(self) -> int:
        """Bytes of bits: a whole number of 64-byte blocks."""
        return int(self._params().bytes)

    @property
    def k(self) -> int:
        """Bits set per key, all in one 64-byte block."""
        return int(self._params().k)

    @property
    def seed(self) -> int:
        return int(self._params().seed)

    @property
    def keyed(self) -> bool:
        """Whether keys hash under a secret key (BloomFilter(..., key=...))."""
        return bool(self._params().keyed)

    @property
    def read_only(self) -> bool:
        """True for BloomFilter.open(read_only=True) and BloomFilter.view: adds then fail."""
        return bool(self._params().read_only)

    def _params(self) -> Any:
        params = _handle.sized("seen_bloom_info")
        check(lib.seen_bloom_get_info(self._h, params), self._h)
        return params

    def _stats(self) -> Any:
        stats = _handle.sized("seen_bloom_stats")
        check(lib.seen_bloom_get_stats(self._h, stats), self._h)
        return stats

    def _describe(self) -> str:
        return (f"BloomFilter(expected_items={self.expected_items}, fpr={self.fpr}, "
                f"seed={self.seed}) with size_bytes={self.size_bytes}, k={self.k}")

    # --- bytes and files (_files.py) -----------------------------------------------------

    def _is_keyed(self) -> bool:
        return self.keyed
