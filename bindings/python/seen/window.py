"""Window: has this item been shown recently? libseen's exposure window, for one user.

A window remembers the last N items (a count window) or the items of the last N seconds (a
time window): everything in that span is always found, older items are forgotten within a
stated slack, and items never added are found at about the target false-positive rate.

The clock is an explicit `now` argument (seconds of any epoch, at most 2**32 - 1), so tests
control time. Count windows ignore it. The state lives in C memory; this object holds the
handle and a lock, because a C window's adds must not race its other calls.
"""
import math
import operator
import threading
from dataclasses import dataclass, field
from typing import Any, Optional, SupportsIndex, Tuple, Union

from . import _batches, _files, _handle
from ._figure import figure
from ._keys import Key
from ._native import ffi, lib
from .errors import call, check, invalid_argument, raise_status

# Seconds: ints (and integer types such as numpy.uint64), or floats such as time.time(),
# which count down to the whole second.
Seconds = Union[float, SupportsIndex]

_NULL = ffi.NULL
_MODES = {"count": lib.SEEN_WINDOW_COUNT, "time": lib.SEEN_WINDOW_TIME}
_MODE_NAMES = {number: name for name, number in _MODES.items()}
_LAYOUT_NAMES = {1: "ring", 2: "sliced", 3: "growing", 4: "table", 5: "packed"}
# What the figures of a Window read.
_INFO = operator.attrgetter("info")


def seconds(now: Seconds) -> int:
    """`now` as whole seconds for the C API: floats round down; negative values overflow."""
    if isinstance(now, float):
        if not math.isfinite(now):
            raise ValueError(f"now must be finite, not {now}")
        return math.floor(now)
    return operator.index(now)


@dataclass(frozen=True)
class WindowSpec:
    """What a window must remember and at what false-positive rate: the options a Window or
    every user's window in an ExposureStore is sized from. Make one with last_items,
    last_seconds or last_items_in_bytes."""

    mode: str  # "count" (the last `span` items) or "time" (the last `span` seconds)
    span: int
    fpr: float = 0.01  # the total false-positive rate of a query once the window is full
    max_slack: float = 0.25  # how far past the span (a fraction of it) an item may linger
    seed: int = 0
    expected_items: int = 0  # time windows: the items a typical user gets within the span
    # Keyed mode (docs/SECURITY.md): 16 to 64 secret bytes under which items hash; a keyed
    # window's or store's bytes and files open only with it.
    key: Optional[bytes] = field(default=None, repr=False)
    # Count windows, if not 0: the lowest-fpr window of this many bytes. Time windows: the
    # most bytes a window may grow to (0: the larger of 1 MiB and 4x its start).
    max_bytes: int = 0

    @classmethod
    def last_items(cls, n: int, fpr: float = 0.01, seed: int = 0,
                   max_slack: float = 0.25) -> "WindowSpec":
        """The last n items, at a total false-positive rate of fpr."""
        return cls("count", n, fpr=fpr, max_slack=max_slack, seed=seed)

    @classmethod
    def last_seconds(cls, seconds: int, expected_items: int, fpr: float = 0.01, seed: int = 0,
                     max_slack: float = 0.25, max_bytes: int = 0) -> "WindowSpec":
        """The items of the last `seconds` seconds at a total false-positive rate of fpr,
        for any number of them: the window starts sized for expected_items and grows with
        the items it gets, up to max_bytes; past that it gives up its oldest time, then its
        rate, never an item (see Window.usage)."""
        return cls("time", seconds, fpr=fpr, max_slack=max_slack, seed=seed,
                   expected_items=expected_items, max_bytes=max_bytes)

    @classmethod
    def last_items_in_bytes(cls, n: int, max_bytes: int, seed: int = 0,
                            max_slack: float = 0.25) -> "WindowSpec":
        """The last n items in at most max_bytes bytes of state, at the lowest rate that fits."""
        return cls("count", n, max_slack=max_slack, seed=seed, max_bytes=max_bytes)

    def _options(self) -> Tuple[Any, Any]:
        """The seen_window_options of this spec and the key buffer it points to: cdata the
        caller keeps alive together for the call."""
        if self.mode not in _MODES:
            invalid_argument(f"window mode must be 'count' or 'time', not {self.mode!r}")
        # The C API reads max_slack 0 as "the default": refuse it here rather than surprise.
        if not self.max_slack > 0:
            invalid_argument(f"max_slack must be > 0, not {self.max_slack}")
        key = ffi.from_buffer("uint8_t[]", self.key) if self.key is not None else _NULL
        return ffi.new("seen_window_options*", {
            "size": ffi.sizeof("seen_window_options"),
            "mode": _MODES[self.mode],
            "span": self.span,
            "expected_items": self.expected_items,
            "fpr": self.fpr,
            "max_slack": self.max_slack,
            "seed": self.seed,
            "max_bytes": self.max_bytes,
            "key": key,
            "key_len": len(self.key) if self.key is not None else 0,
        }), key


@dataclass(frozen=True)
class WindowInfo:
    """What a window became once sized: its layout ("ring": the last items' fingerprints;
    "packed": those fingerprints in segments, each a sorted set coded compactly, forgotten a
    segment at a time; "sliced": Bloom segments rotated together; "table": the default for time, fingerprints in
    a table that doubles as items come, each lookup one cache line; "growing": sliced segments
    in time that open growth levels as they get more items, for time windows of files from
    before the table or of rates the table cannot reach), its exact span (time spans round up
    to whole segments), its slack (items may linger up to span * (1 + slack)), the bytes of
    its state (for a table or growing window, its start), the false-positive rate predicted
    once it is full and, for a table or growing window, the most bytes it may take (else 0)."""

    mode: str
    layout: str
    span: int
    segments: int
    slack: float
    state_bytes: int
    predicted_fpr: float
    seed: int
    max_bytes: int = 0

    @classmethod
    def _read(cls, fill: Any, handle: Any) -> "WindowInfo":
        info = _handle.sized("seen_window_info")
        check(fill(handle, info), handle)
        return cls(mode=_MODE_NAMES.get(info.mode, str(info.mode)),
                   layout=_LAYOUT_NAMES.get(info.layout, str(info.layout)),
                   span=int(info.span), segments=int(info.segments), slack=float(info.slack),
                   state_bytes=int(info.state_bytes), predicted_fpr=float(info.predicted_fpr),
                   seed=int(info.seed), max_bytes=int(info.max_bytes))


@dataclass(frozen=True)
class WindowUsage:
    """A window at one moment: fill, the share of its capacity in use (a table window's
    current table, a growing window's start); predicted_fpr, the false-positive rate at that
    fill; effective_span, the span less what a table or growing window gave up to its
    max_bytes (every item of the last effective_span seconds is found); bytes, its state and
    growth; span_limited, whether it gave up older time to max_bytes; over_target, whether
    predicted_fpr is above the target (a current segment that alone outgrew max_bytes gives up
    rate, never an item)."""

    fill: float
    predicted_fpr: float
    effective_span: int
    bytes: int
    span_limited: bool
    over_target: bool

    @classmethod
    def _of(cls, sat: Any) -> "WindowUsage":
        return cls(fill=float(sat.fill), predicted_fpr=float(sat.predicted_fpr),
                   effective_span=int(sat.effective_span), bytes=int(sat.bytes),
                   span_limited=bool(sat.span_limited), over_target=bool(sat.over_target))


class Window(_files.Serialized):
    """An exposure window of str (as UTF-8), bytes and int (u64) items: everything within its
    span is always found; an item never added is found at about the spec's fpr.

    Calls on a time window take `now`; count windows ignore it. A window may be shared
    between threads: its own lock serializes the calls. A closed window raises
    InvalidArgumentError on every call. Its bytes are kind 4 of docs/FORMAT.md, clock and
    contents included.
    """

    __slots__ = ("_h", "_key", "_time", "_lock", "_one_id", "_one_offsets", "_one_out")
    _c = _files.CFunctions(
        "seen_window*", lib.seen_window_free, lib.seen_window_last_error,
        serialize=lib.seen_window_serialize, deserialize=lib.seen_window_deserialize,
        deserialize_keyed=lib.seen_window_deserialize_keyed)

    def __init__(self, spec: WindowSpec, now: Seconds = 0) -> None:
        """A new, empty window sized from spec; `now` starts the clock of a time window."""
        out = ffi.new("seen_window**")
        options, _key = spec._options()
        call(lib.seen_window_create, options, seconds(now), out)
        self._own(out[0], key=spec.key)

    def _own(self, handle: Any, borrowed: Any = None, key: Optional[bytes] = None) -> None:
        self._h = ffi.gc(handle, self._c.free)  # borrowed: it has no view
        self._key = key
        self._time = self.info.mode == "time"
        self._lock = threading.Lock()
        # Scratch arrays of the single-item calls, used under the lock.
        self._one_id = ffi.new("uint64_t[1]")
        self._one_offsets = ffi.new("uint64_t[2]")
        self._one_out = ffi.new("uint8_t[1]")

    @classmethod
    def last_items(cls, n: int, fpr: float = 0.01, seed: int = 0,
                   max_slack: float = 0.25) -> "Window":
        """A count window: the last n items are always found; the total false-positive rate
        is at most fpr; an item is forgotten by n * (1 + max_slack) later adds."""
        return cls(WindowSpec.last_items(n, fpr=fpr, seed=seed, max_slack=max_slack))

    @classmethod
    def last_seconds(cls, seconds: int, expected_items: int, fpr: float = 0.01, seed: int = 0,
                     max_slack: float = 0.25, now: Seconds = 0,
                     max_bytes: int = 0) -> "Window":
        """A time window: items added in the last `seconds` seconds are always found, at a
        total false-positive rate of fpr however many there are; it starts sized for
        expected_items and grows up to max_bytes (see WindowSpec.last_seconds)."""
        spec = WindowSpec.last_seconds(seconds, expected_items, fpr=fpr, seed=seed,
                                       max_slack=max_slack, max_bytes=max_bytes)
        return cls(spec, now)

    @classmethod
    def last_items_in_bytes(cls, n: int, max_bytes: int, seed: int = 0,
                            max_slack: float = 0.25) -> "Window":
        """A count window of the last n items in at most max_bytes bytes of state, at the
        lowest false-positive rate that fits (see predicted_fpr)."""
        return cls(WindowSpec.last_items_in_bytes(n, max_bytes, seed=seed, max_slack=max_slack))

    def _clock(self, now: Optional[Seconds]) -> int:
        if now is not None:
            return seconds(now)
        if self._time:
            raise TypeError("a time window needs the time: pass now=")
        return 0

    # --- single items --------------------------------------------------------------------

    def add(self, item: Key, now: Optional[Seconds] = None) -> None:
        """Records one item (at time `now`, for a time window)."""
        t = self._clock(now)
        with self._lock:
            status = self._one(item, t, lib.seen_window_add_u64, lib.seen_window_add_keys)
        if status:
            raise_status(status, self._h)

    def contains(self, item: Key, now: Optional[Seconds] = None) -> bool:
        """True if item may be in the window (at time `now`, for a time window); False if it
        certainly is not."""
        t = self._clock(now)
        with self._lock:
            status = self._one(item, t, lib.seen_window_contains_u64,
                               lib.seen_window_contains_keys, self._one_out)
            found = bool(self._one_out[0])
        if status:
            raise_status(status, self._h)
        return found

    def __contains__(self, item: object) -> bool:
        """`item in window`, for count windows; a time window needs window.contains(item, now)."""
        if self._time:
            raise TypeError("a time window needs the time: use window.contains(item, now)")
        return self.contains(item)  # type: ignore[arg-type]

    def _one(self, item: Any, now: int, by_id: Any, by_key: Any, *out: Any) -> int:
        """One item through a batch call of one, with the scratch arrays (under the lock)."""
        if not isinstance(item, _batches.BYTE_KEYS):
            try:
                self._one_id[0] = operator.index(item)
            except TypeError:
                raise TypeError(
                    f"an item is str, bytes or int, not {type(item).__name__}") from None
            status: int = by_id(self._h, self._one_id, 1, now, *out)
            return status
        data = _batches.key_bytes(item)
        self._one_offsets[1] = len(data)
        status = by_key(self._h, ffi.from_buffer("uint8_t[]", data), self._one_offsets, 1, now,
                        *out)
        return status

    # --- batches -------------------------------------------------------------------------

    def add_many(self, items: Any, now: Optional[Seconds] = None) -> None:
        """Records a batch, in order: a uint64 buffer (numpy array, array('Q')) used in place,
        or a list (or any iterable) of ints, or of str/bytes."""
        t = self._clock(now)
        b = _batches.batch(items)
        with self._lock:
            check(_batches.call(b, lib.seen_window_add_u64, lib.seen_window_add_keys, self._h, t), self._h)

    def contains_many(self, items: Any, now: Optional[Seconds] = None) -> Any:
        """One answer per item of a batch (as for add_many): a numpy bool array if numpy is
        installed, else a bytearray of 0/1."""
        t = self._clock(now)
        b = _batches.batch(items)
        results, out = _batches.new_results(b.n)
        with self._lock:
            check(_batches.call(b, lib.seen_window_contains_u64, lib.seen_window_contains_keys,
                                self._h, t, out), self._h)
        return results

    # --- what the window became ----------------------------------------------------------

    @property
    def info(self) -> WindowInfo:
        """Mode, layout, span, segments, slack, state_bytes, predicted_fpr and seed."""
        return WindowInfo._read(lib.seen_window_get_info, self._h)

    def saturation(self, now: Optional[Seconds] = None) -> Tuple[float, float]:
        """(fill, predicted_fpr) at `now`: the share of the window's capacity in use and the
        false-positive rate at that fill; above the target when a time window got more than
        expected_items."""
        t = self._clock(now)
        sat = _handle.sized("seen_window_saturation")
        with self._lock:
            check(lib.seen_window_get_saturation(self._h, t, sat), self._h)
        return float(sat.fill), float(sat.predicted_fpr)

    def usage(self, now: Optional[Seconds] = None) -> WindowUsage:
        """Fill, predicted_fpr, effective_span and bytes at `now`."""
        t = self._clock(now)
        sat = _handle.sized("seen_window_saturation")
        with self._lock:
            check(lib.seen_window_get_saturation(self._h, t, sat), self._h)
        return WindowUsage._of(sat)

    mode = figure(_INFO, str, '"count" or "time".')
    layout = figure(_INFO, str, '"ring" (the last items\' 16-bit fingerprints), "packed" (the same '
                    'in coded segments), "sliced" (rotated Bloom segments), "table" or "growing".')
    span = figure(_INFO, int, "Items (count) or seconds (time) always remembered.")
    slack = figure(_INFO, float,
                   "How far past the span an item may still be found, as a fraction of the span.")
    state_bytes = figure(_INFO, int, "Bytes of the window's state.")
    predicted_fpr = figure(_INFO, float,
                           "The false-positive rate of a query once the window is full.")
    seed = figure(_INFO, int)

    def _describe(self) -> str:
        i = self.info
        unit = "items" if i.mode == "count" else "seconds"
        return (f"<Window of the last {i.span} {unit}: {i.layout}, {i.state_bytes} bytes, "
                f"slack {i.slack:.3g}, predicted_fpr {i.predicted_fpr:.3g}>")

    # --- bytes and lifetime (_files.py) ------------------------------------------------

    def copy(self) -> "Window":
        """An independent copy, contents and clock included."""
        return Window.from_bytes(self.to_bytes(), key=self._key)
