"""BloomFilter: a set-like Python face on libseen's blocked Bloom filter.

The filter's bits live in C memory (allocated, mapped from a file, or borrowed from a
buffer); this object holds only the handle. cffi releases the GIL around every C call, so
threads may add and test one filter at once; close() needs exclusive access, as in C. The
single-key `in` and `add` are answered by the C base class SingleKeyProbe instead, which keeps
the GIL for their few nanoseconds of work (_blocked.py).
"""
import operator
from functools import reduce
from typing import Any

from . import _files, _handle, _keys
from ._blocked import BlockedFilter, FilterCalls
from ._keys import Key
from ._native import ffi, lib
from ._probe import SingleKeyProbe
from .errors import check, raise_status

# Bound once: the single-key paths are dominated by attribute lookups otherwise.
_put_u64 = lib.seen_bloom_add_one_u64
_put_key = lib.seen_bloom_add_one_key


class BloomFilter(BlockedFilter):
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

    __slots__ = ()
    _c = _files.CFunctions(
        "seen_bloom*", lib.seen_bloom_free, lib.seen_bloom_last_error, lib.seen_bloom_serialize,
        lib.seen_bloom_deserialize, lib.seen_bloom_deserialize_keyed, lib.seen_bloom_view,
        lib.seen_bloom_save, lib.seen_bloom_open, lib.seen_bloom_open_keyed, lib.seen_bloom_sync,
        lib.SEEN_OPEN_WRITE_IN_PLACE)
    _calls = FilterCalls(
        lib.seen_bloom_create, lib.seen_bloom_create_keyed, lib.seen_bloom_contains_one_u64,
        lib.seen_bloom_contains_one_key, lib.seen_bloom_add_u64, lib.seen_bloom_add_keys,
        lib.seen_bloom_contains_u64, lib.seen_bloom_contains_keys, lib.seen_bloom_get_info,
        lib.seen_bloom_get_stats, "seen_bloom_info", "seen_bloom_stats")
    _counting = False
    # Adds from many threads take the library's stripe locks: no lock here.
    _one_writer = False

    # --- single keys ---------------------------------------------------------------------

    # add(key) -> bool: the C base's test-and-add (_probe.c), without a Python frame.
    add = SingleKeyProbe._add_one

    def _add_other(self, key: Key) -> bool:
        """add for the keys the C base leaves to cffi: other key types, a closed filter."""
        was_present = _handle.was_present_slot()
        status = _keys.call(_put_u64, _put_key, self._h, key, was_present)
        if status:
            raise_status(status, self._h)
        return bool(was_present[0])

    # --- merging -------------------------------------------------------------------------

    def __ior__(self, other: "BloomFilter") -> "BloomFilter":
        """Adds every key of other (same size, k and seed, else IncompatibleError)."""
        if not isinstance(other, BloomFilter):
            return NotImplemented
        return self._combine(other, lib.seen_bloom_merge)

    def __or__(self, other: "BloomFilter") -> "BloomFilter":
        """A new filter holding the keys of both."""
        return self.union(other) if isinstance(other, BloomFilter) else NotImplemented

    def union(self, *others: "BloomFilter") -> "BloomFilter":
        """A new filter holding the keys of this one and of every other, as set.union."""
        result: BloomFilter = reduce(operator.ior, others, self.copy())
        return result

    # Intersection and subset order work on the bits, so they are approximate, each in a
    # stated direction: never a false negative, as everywhere in seen.

    def __iand__(self, other: "BloomFilter") -> "BloomFilter":
        """Keeps the bits both filters have (same size, k and seed, else IncompatibleError).
        Every key added to both still looks present; a key of one alone may too, more often
        than a filter built from the common keys would say (len is approximate upward)."""
        if not isinstance(other, BloomFilter):
            return NotImplemented
        return self._combine(other, lib.seen_bloom_intersect)

    def __and__(self, other: "BloomFilter") -> "BloomFilter":
        """A new filter of the bits both have (see &=)."""
        return self.intersection(other) if isinstance(other, BloomFilter) else NotImplemented

    def intersection(self, *others: "BloomFilter") -> "BloomFilter":
        """A new filter of the bits all have (see &=), as set.intersection."""
        result: BloomFilter = reduce(operator.iand, others, self.copy())
        return result

    def _combine(self, other: "BloomFilter", merge_or_intersect: Any) -> "BloomFilter":
        """|= or &= through C: this filter takes other's bits (or keeps the common ones)."""
        check(merge_or_intersect(self._h, other._h), self._h)
        return self

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
