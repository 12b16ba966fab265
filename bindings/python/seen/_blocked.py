"""BlockedFilter: what BloomFilter and CountingFilter share, as one blocked Bloom filter in two
memory layouts (docs/counting.md): the same blocks, k, answers, parameters and files.

`key in filter` (and a Bloom filter's add) is answered by the C base class SingleKeyProbe
(_probe.c says why): the probe is bound to each handle the filter takes and unbound when it
closes, and keys the probe does not take (other types, a closed filter) come to
_contains_other (and _add_other), through cffi. Everything else goes through the kind's C
functions, named once in its FilterCalls.
"""
import threading
from operator import methodcaller
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable, NoReturn, Optional, Type, TypeVar

from . import _batches, _files, _handle, _keys
from ._counts import rounded_count
from ._figure import figure
from ._keys import Key
from ._native import ffi, lib
from ._probe import SingleKeyProbe
from .errors import check, raise_status
from .sizing import DEFAULT_FPR

Filter = TypeVar("Filter", bound="BlockedFilter")

# What the figures below read: the filter's info (O(1)) or its stats (a read of the filter).
_PARAMS = methodcaller("_params")
_STATS = methodcaller("_stats")


@dataclass(frozen=True)
class FilterCalls:
    """One blocked filter kind's C functions for keys and figures (its CFunctions has the
    rest), and its info and stats struct types."""

    create: Any
    create_keyed: Any
    contains_one_u64: Any
    contains_one_key: Any
    add_u64: Any
    add_keys: Any
    contains_u64: Any
    contains_keys: Any
    get_info: Any
    get_stats: Any
    info_type: str
    stats_type: str


class BlockedFilter(SingleKeyProbe, _files.Serialized, _files.Files):
    """The kind sets _c and _calls (its C functions), _counting (which C calls the probe
    makes) and _one_writer (whether a writer needs the filter to itself, so that adds,
    removes, clear, stats, serialize and save take the lock; queries never do)."""

    __slots__ = ("_h", "_borrowed", "_lock", "_key")
    _calls: ClassVar[FilterCalls]
    _counting: ClassVar[bool]
    _one_writer: ClassVar[bool]

    def __init__(self, expected_items: int, fpr: float = DEFAULT_FPR, seed: int = 0,
                 key: Optional[bytes] = None) -> None:
        """A new, empty filter sized for expected_items keys at a false-positive rate of fpr.
        A key (16 to 64 secret bytes) makes it keyed (docs/SECURITY.md): its bytes do not hold
        the key and open only with it."""
        c = self._calls
        self._own(_handle.create_keyed(c.create, c.create_keyed, self._c.handle_type,
                                       expected_items, fpr, seed, key),
                  key=None if key is None else bytes(key))

    def _own(self, handle: Any, borrowed: Any = None, key: Optional[bytes] = None) -> None:
        self._h = ffi.gc(handle, self._c.free)
        self._bind_probe(int(ffi.cast("uintptr_t", handle)), self._counting)
        # A view's buffer must outlive the handle that reads it.
        self._borrowed = borrowed
        self._key = key
        self._lock = threading.Lock() if self._one_writer else _files.NO_LOCK

    # --- single keys that the C base leaves to cffi ----------------------------------------

    def _contains_other(self, key: object) -> bool:
        c = self._calls
        found = _keys.call(c.contains_one_u64, c.contains_one_key, self._h, key)
        if found < 0:
            raise_status(lib.SEEN_ERR_INVALID_ARGUMENT, self._h)
        return found == 1

    def _raise_status(self, status: int) -> NoReturn:
        """Raises the failure of a call the C base made on the handle (_probe.c)."""
        raise_status(status, self._h)

    # --- batches -------------------------------------------------------------------------

    def add_many(self, keys: Any) -> None:
        """Adds a batch, in order: a uint64 buffer (numpy array, array('Q')) used in place, or
        a list (or any iterable) of ints, or of str/bytes."""
        b = _batches.batch(keys)
        with self._lock:
            status = _batches.call(b, self._calls.add_u64, self._calls.add_keys, self._h)
        check(status, self._h)

    def contains_many(self, keys: Any) -> Any:
        """One answer per key of a batch (as for add_many): a numpy bool array if numpy is
        installed, else a bytearray of 0/1."""
        b = _batches.batch(keys)
        results, out = _batches.new_results(b.n)
        check(_batches.call(b, self._calls.contains_u64, self._calls.contains_keys, self._h,
                            out), self._h)
        return results

    def update(self, *iterables: Iterable[Key]) -> None:
        """Adds every key of every iterable, like set.update; one iterable may mix ids and
        str/bytes keys. A single str or bytes is refused: wrap it in a list."""
        _batches.update(self.add_many, iterables)

    # --- estimates and parameters --------------------------------------------------------

    def __len__(self) -> int:
        """The number of keys in, estimated from the filter (reads all of it)."""
        return rounded_count(self._stats().approx_items)

    def __bool__(self) -> bool:
        """False only while no key is in (reads the filter)."""
        return float(self._stats().fill_ratio) > 0

    fpr = figure(_PARAMS, float, "The target false-positive rate given at creation.",
                 field="target_fpr")
    expected_fpr = figure(_STATS, float, "The false-positive rate predicted for the filter as "
                          "it is now (reads the filter).", field="predicted_fpr")
    expected_items = figure(_PARAMS, int)
    size_bytes = figure(_PARAMS, int, "Bytes of state: a whole number of blocks.", field="bytes")
    k = figure(_PARAMS, int, "Bits (or counters) per key, all in one block.")
    seed = figure(_PARAMS, int)
    keyed = figure(_PARAMS, bool,
                   "Whether keys hash under a secret key (made, read or opened with key=...).")
    read_only = figure(_PARAMS, bool, "True for a filter opened with read_only=True or a view: "
                       "changes then fail with ReadOnlyError.")

    def _params(self) -> Any:
        params = _handle.sized(self._calls.info_type)
        check(self._calls.get_info(self._h, params), self._h)
        return params

    def _stats(self) -> Any:
        stats = _handle.sized(self._calls.stats_type)
        with self._lock:
            check(self._calls.get_stats(self._h, stats), self._h)
        return stats

    def _describe(self) -> str:
        return (f"{type(self).__name__}(expected_items={self.expected_items}, fpr={self.fpr}, "
                f"seed={self.seed}) with size_bytes={self.size_bytes}, k={self.k}")

    # --- bytes and files beyond _files.py ------------------------------------------------

    @classmethod
    def view(cls: Type[Filter], buffer: Any, verify: bool = True) -> Filter:
        """A read-only filter that reads serialized bytes in place, without a copy. It keeps
        buffer alive; do not change its contents while it is open. verify=False skips the
        payload checksum (the header is always checked)."""
        out, src = _handle.view(cls._c.view, cls._c.handle_type, buffer, verify)
        return cls._adopt(out, borrowed=src)

    def sync(self) -> None:
        """For one opened with read_only=False: reseals and flushes it to its file."""
        with self._lock:
            check(self._c.sync(self._h), self._h)

    def close(self) -> None:
        """Unbinds the single-key probe, then syncs a writable mapped filter and frees it now
        rather than at garbage collection. Closing twice is harmless; no other thread may be
        using it."""
        self._bind_probe(0)
        super().close()
