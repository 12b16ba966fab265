"""CountingFilter: libseen's counting filter, a Bloom filter that can forget keys.

Every bit of the blocked Bloom filter is a 4-bit saturating counter (docs/counting.md): the
same blocks, k, answers and false-positive rate as a BloomFilter of the same expected_items
and fpr, in 5x the memory. The counters live in C memory; this object holds the handle and a
writer lock, because in C adds, removes, clear and sync need exclusive access (and stats,
serialize and save must not run beside a writer), while queries may run beside that one
writer: `in` and contains_many take no lock. `in` is answered by the C base class
SingleKeyProbe, as BloomFilter's is (_blocked.py).
"""
from typing import Any

from . import _batches, _files, _keys
from ._blocked import _PARAMS, _STATS, BlockedFilter, FilterCalls
from ._figure import figure
from ._keys import Key
from ._native import lib
from .errors import check, raise_status

_NOT_FOUND = lib.SEEN_ERR_NOT_FOUND

# Bound once: the single-key paths are dominated by attribute lookups otherwise.
_put_u64 = lib.seen_counting_add_one_u64
_put_key = lib.seen_counting_add_one_key
_delete_u64 = lib.seen_counting_remove_one_u64
_delete_key = lib.seen_counting_remove_one_key


class CountingFilter(BlockedFilter):
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

    __slots__ = ()
    _c = _files.CFunctions(
        "seen_counting*", lib.seen_counting_free, lib.seen_counting_last_error,
        lib.seen_counting_serialize, lib.seen_counting_deserialize,
        lib.seen_counting_deserialize_keyed, lib.seen_counting_view, lib.seen_counting_save,
        lib.seen_counting_open, lib.seen_counting_open_keyed, lib.seen_counting_sync,
        lib.SEEN_OPEN_WRITE_IN_PLACE)
    _calls = FilterCalls(
        lib.seen_counting_create, lib.seen_counting_create_keyed,
        lib.seen_counting_contains_one_u64, lib.seen_counting_contains_one_key,
        lib.seen_counting_add_u64, lib.seen_counting_add_keys, lib.seen_counting_contains_u64,
        lib.seen_counting_contains_keys, lib.seen_counting_get_info,
        lib.seen_counting_get_stats, "seen_counting_info", "seen_counting_stats")
    _counting = True
    # In C adds, removes, clear and sync need the filter to themselves.
    _one_writer = True

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

    def clear(self) -> None:
        """Removes every key (every counter back to zero)."""
        with self._lock:
            check(lib.seen_counting_clear(self._h), self._h)

    def copy(self) -> "CountingFilter":
        """A writable copy in memory (also of a read-only or mapped filter)."""
        return CountingFilter.from_bytes(self.to_bytes(), key=self._key)

    # --- figures of a counting filter ----------------------------------------------------

    saturated = figure(_STATS, int, "Counters stuck at their maximum (15): they never decrement, "
                       "so keys on them all can never be forgotten (reads every counter).")
    fill_ratio = figure(_STATS, float,
                        "The fraction of counters that are not zero (reads every counter).")
    blocks = figure(_PARAMS, int)
    counter_bits = figure(_PARAMS, int, "Bits per counter: 4.")
