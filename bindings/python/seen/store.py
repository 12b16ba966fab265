"""ExposureStore: one exposure window per user id, for millions of users, in libseen.

Every call is thread-safe in C (users are spread over 64 shards, each with its own lock), and
cffi releases the GIL around it, so request threads share one store. Users are u64 ids and
so are items. A user appears on their first mark or take, and is dropped after idle_timeout
seconds without one.
"""
import operator
from dataclasses import dataclass
from typing import Any, Optional, SupportsIndex

from . import _batches, _files, _handle
from ._handle import PathLike
from ._native import ffi, lib
from .errors import call, check, invalid_argument
from .window import Seconds, WindowInfo, WindowSpec, WindowUsage, seconds

_NULL = ffi.NULL
_NEVER = 2**32 - 1  # the C API's idle_timeout for "never expire"


@dataclass(frozen=True)
class StoreStats:
    """users now in the store; bytes held by their windows, ids, times and the index; users
    dropped so far by the memory bound (evictions) and for idleness (expirations); users
    whose growing window opened sub-filters (users_grown); segments windows gave up to their
    max_bytes (span_drops)."""

    users: int
    bytes: int
    evictions: int
    expirations: int
    users_grown: int
    span_drops: int


@dataclass(frozen=True)
class StoreSaturation:
    """How full the users' windows are: users_above_target counts those whose predicted
    false-positive rate exceeds the target (a time window given more than expected_items);
    mean_fill is over users, max_predicted_fpr the highest of any user; users_span_limited
    counts those whose window gave up time to its max_bytes (effective span under the span)."""

    users: int
    users_above_target: int
    mean_fill: float
    max_predicted_fpr: float
    users_span_limited: int


class ExposureStore(_files.Files):
    """What each user was already shown: filter a request's candidates down to the unseen,
    mark what was shown, or take a page of unseen candidates in one atomic step.

    save() holds every shard's lock while it writes; close() loses what was not saved, and no
    other thread may be using the store. A closed store raises InvalidArgumentError on every
    call.
    """

    __slots__ = ("_h", "_read_only")
    _c = _files.CFunctions("seen_store*", lib.seen_store_free, lib.seen_store_last_error,
                           save=lib.seen_store_save, open=lib.seen_store_open,
                           open_keyed=lib.seen_store_open_keyed)

    def __init__(self, window: WindowSpec, idle_timeout: Optional[int] = 86400,
                 max_bytes: Optional[int] = None, expected_users: int = 2**20) -> None:
        """A new, empty store. window: every user's window (a WindowSpec). idle_timeout:
        seconds without a mark or take before a user is dropped, counted in whole hours;
        None never drops them. max_bytes: a memory bound (None for none); at the bound a new
        user evicts the least recently active of a sample. expected_users sizes the index."""
        if not isinstance(window, WindowSpec):
            raise TypeError("window is a seen.WindowSpec, such as WindowSpec.last_items(500), "
                            f"not {type(window).__name__}")
        if idle_timeout is None:
            timeout = _NEVER
        else:
            timeout = operator.index(idle_timeout)
            if not 0 < timeout < _NEVER:
                invalid_argument(f"idle_timeout must be 1 to {_NEVER - 1} seconds, or None "
                                 f"for never, not {timeout}")
        if max_bytes is not None and operator.index(max_bytes) <= 0:
            invalid_argument(f"max_bytes must be at least 1, or None for no bound, not {max_bytes}")
        if operator.index(expected_users) <= 0:
            invalid_argument(f"expected_users must be at least 1, not {expected_users}")
        window_options, _key = window._options()
        options = ffi.new("seen_store_options*", {
            "size": ffi.sizeof("seen_store_options"),
            "window": window_options,
            "idle_timeout": timeout,
            "max_bytes": max_bytes or 0,
            "expected_users": expected_users,
        })
        out = ffi.new("seen_store**")
        call(lib.seen_store_create, options, out)
        self._own(out[0])

    def _own(self, handle: Any, borrowed: Any = None, key: Optional[bytes] = None) -> None:
        # borrowed, key: it has no view and does not pickle or copy, so it need not keep them
        self._h = ffi.gc(handle, self._c.free)
        self._read_only = False  # open() says otherwise

    # --- requests ------------------------------------------------------------------------

    def filter(self, user: SupportsIndex, candidates: Any, now: Seconds) -> Any:
        """Which candidates the user has not been shown: one flag per candidate, True for
        unseen, as a numpy bool array (a bytearray of 0/1 without numpy). Candidates are a
        uint64 buffer (numpy array, array('Q')), used in place, or a list of ints. A user
        the store does not know has seen nothing. Does not count as activity."""
        b = _batches.ids(candidates)
        unseen, out = _batches.new_results(b.n)
        check(lib.seen_store_filter(self._h, operator.index(user), b.ptr, b.n, seconds(now),
                                    out), self._h)
        return unseen

    def mark(self, user: SupportsIndex, items: Any, now: Seconds) -> None:
        """Records that the items (as for filter) were shown to the user at `now`."""
        b = _batches.ids(items)
        check(lib.seen_store_mark(self._h, operator.index(user), b.ptr, b.n, seconds(now)), self._h)

    def take(self, user: SupportsIndex, candidates: Any, want: SupportsIndex,
             now: Seconds) -> Any:
        """In one atomic step: the first `want` candidates the user has not seen, in order,
        which are marked as shown. Returns them as a numpy uint64 array (a list without
        numpy). Two takes for one user, from any threads, never return the same item."""
        b = _batches.ids(candidates)
        wanted = operator.index(want)
        if wanted < 0:
            invalid_argument(f"want must be at least 0, not {wanted}")
        taken = _batches.new_ids(min(wanted, b.n))
        room = len(taken)
        out = ffi.from_buffer("uint64_t[]", taken, require_writable=True) if room else _NULL
        count = ffi.new("size_t*")
        check(lib.seen_store_take(self._h, operator.index(user), b.ptr, b.n, room, seconds(now),
                                  out, count), self._h)
        return _batches.first_ids(taken, count[0])

    def expire(self, now: Seconds) -> int:
        """Drops every user idle longer than idle_timeout at `now`; returns how many."""
        dropped = ffi.new("uint64_t*")
        check(lib.seen_store_expire(self._h, seconds(now), dropped), self._h)
        return int(dropped[0])

    # --- state ---------------------------------------------------------------------------

    @property
    def stats(self) -> StoreStats:
        """Users, bytes, evictions, expirations, grown users and span drops, counted now."""
        s = _handle.sized("seen_store_stats")
        check(lib.seen_store_get_stats(self._h, s), self._h)
        return StoreStats(users=int(s.users), bytes=int(s.bytes), evictions=int(s.evictions),
                          users_grown=int(s.users_grown), span_drops=int(s.span_drops),
                          expirations=int(s.expirations))

    def saturation(self, now: Seconds) -> StoreSaturation:
        """Measures every user's window at `now` (O(users x window bytes)), so that users
        whose windows hold a rate above the target show up."""
        sat = _handle.sized("seen_store_saturation")
        check(lib.seen_store_get_saturation(self._h, seconds(now), sat), self._h)
        return StoreSaturation(users=int(sat.users), users_above_target=int(sat.users_above_target),
                               mean_fill=float(sat.mean_fill),
                               max_predicted_fpr=float(sat.max_predicted_fpr),
                               users_span_limited=int(sat.users_span_limited))

    def user_usage(self, user: int, now: Seconds) -> Optional[WindowUsage]:
        """One user's window at `now` (fill, predicted_fpr, effective_span, bytes), or None
        for a user the store does not hold."""
        sat = _handle.sized("seen_window_saturation")
        status = lib.seen_store_get_user_saturation(self._h, operator.index(user), seconds(now), sat)
        if status == lib.SEEN_ERR_NOT_FOUND:
            return None
        check(status, self._h)
        return WindowUsage._of(sat)

    def __len__(self) -> int:
        """The number of users in the store."""
        return self.stats.users

    @property
    def window(self) -> WindowInfo:
        """What every user's window is: layout, span, slack, state_bytes, predicted_fpr..."""
        return WindowInfo._read(lib.seen_store_get_window_info, self._h)

    @property
    def read_only(self) -> bool:
        """True for ExposureStore.open(read_only=True): mark, take and expire then fail."""
        return self._read_only

    def _describe(self) -> str:
        s, w = self.stats, self.window
        unit = "items" if w.mode == "count" else "seconds"
        return (f"<ExposureStore of {s.users} users, {s.bytes} bytes, windows of the last "
                f"{w.span} {unit}{', read-only' if self._read_only else ''}>")

    # --- files and lifetime (save and close: _files.py) ----------------------------------

    @classmethod
    def open(cls, path: PathLike, read_only: bool = True, verify: bool = True,
             key: Optional[bytes] = None) -> "ExposureStore":
        """Maps a saved store. read_only=True serves filter only (writes raise ReadOnlyError);
        read_only=False takes writes in memory until the next save (the file itself is never
        written in place). verify=False skips the payload checksum for a fast open: a corrupt
        window is then refused when its user is touched. A keyed store's file needs its key."""
        store = super().open(path, read_only, verify, key)
        store._read_only = read_only
        return store

    def __reduce__(self) -> Any:
        raise TypeError("an ExposureStore is not pickled: save() it to a file and open() it")
