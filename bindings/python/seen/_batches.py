"""Turns the batch arguments of add_many/contains_many into the C API's arrays, without
copying what is already in the C layout, and allocates the result array.

A batch is either integer ids (a uint64 array as one u64 buffer) or byte keys (one data
buffer plus n+1 offsets: key i is data[offsets[i] .. offsets[i+1])).
"""
from array import array
from itertools import accumulate
from typing import Any, Callable, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

from ._keys import Key
from ._native import ffi

try:
    import numpy
except ImportError:  # numpy is optional: results then come back as a bytearray
    numpy = None  # type: ignore[assignment]

# Buffer formats of native unsigned 64-bit integers ('L' is 64-bit on LP64 platforms).
_U64_FORMATS = {"Q", "=Q", "<Q", "@Q", "L", "=L", "<L", "@L"}
# Keys that hash as bytes; every other key is an integer id.
BYTE_KEYS = (str, bytes, bytearray, memoryview)


class Ids(NamedTuple):
    ptr: Any  # cdata uint64_t[], sharing the caller's memory when it was a u64 buffer
    n: int


class Keys(NamedTuple):
    data: Any  # cdata uint8_t[] of every key's bytes back to back
    offsets: Any  # cdata uint64_t[n + 1]
    n: int


Batch = Union[Ids, Keys]


def batch(items: Any) -> Batch:
    """The C arrays for a batch: a uint64 buffer is used in place; a sequence or iterable of
    ints is copied once into uint64; one of str/bytes is packed once into data + offsets."""
    if isinstance(items, (str, bytes)):
        raise TypeError("a batch is a sequence of keys; wrap a single key in a list")
    view = _buffer_view(items)
    if view is None:
        return _from_sequence(items if isinstance(items, (list, tuple)) else list(items))
    return _u64_buffer(items, view)


def ids(items: Any) -> Ids:
    """A batch that must be integer ids (the exposure store keys items by u64 id only)."""
    b = batch(items)
    if not isinstance(b, Ids):
        raise TypeError("the exposure store's items are int (u64) ids, not str or bytes")
    return b


def split(items: Any) -> List[Any]:
    """The batches of a set-like update: a buffer as it is; any other iterable split into
    its ids and its str/bytes keys, so that one update may mix them."""
    if isinstance(items, (str, bytes)) or _buffer_view(items) is not None:
        return [items]
    ids: List[Any] = []
    keys: List[Any] = []
    for item in items:
        (keys if isinstance(item, BYTE_KEYS) else ids).append(item)
    return [part for part in (ids, keys) if part]


def _buffer_view(items: Any) -> Optional[memoryview]:
    try:
        return memoryview(items)
    except TypeError:
        return None


def _u64_buffer(items: Any, view: memoryview) -> Ids:
    if view.format not in _U64_FORMATS or view.itemsize != 8:
        raise TypeError(
            f"a buffer of ids must hold native uint64 (format 'Q'), not {view.format!r}; "
            "for numpy use ids.astype(numpy.uint64)")
    if not view.c_contiguous:
        raise TypeError("a buffer of ids must be C-contiguous; for numpy use numpy.ascontiguousarray")
    return Ids(ffi.from_buffer("uint64_t[]", items), view.nbytes // 8)


def _from_sequence(items: Sequence[Any]) -> Batch:
    if items and isinstance(items[0], BYTE_KEYS):
        return _pack_keys(items)
    ids = array("Q", items)  # raises OverflowError for ids outside 0 .. 2**64-1
    return Ids(ffi.from_buffer("uint64_t[]", ids), len(ids))


def _pack_keys(items: Sequence[Any]) -> Keys:
    try:
        text = "".join(items)
    except TypeError:  # not all str
        text = ""
    if text and text.isascii():
        # All ASCII str: one encode for the whole batch, and each key's byte length is its
        # str length. This is the common case (ids, emails, URLs) and 3x faster than below.
        return _packed(text.encode("ascii"), map(len, items), len(items))
    encoded = [key_bytes(key) for key in items]
    return _packed(b"".join(encoded), map(len, encoded), len(encoded))


def _packed(data: bytes, lengths: Iterable[int], n: int) -> Keys:
    offsets = array("Q", accumulate(lengths, initial=0))
    return Keys(ffi.from_buffer("uint8_t[]", data), ffi.from_buffer("uint64_t[]", offsets), n)


def key_bytes(key: Any) -> bytes:
    """The bytes a str or bytes-like key hashes as: UTF-8 for str."""
    if isinstance(key, str):
        return key.encode()
    if isinstance(key, (bytes, bytearray, memoryview)):
        return bytes(key)
    raise TypeError(f"a batch mixes keys: expected str or bytes, got {type(key).__name__}")


def call(b: Batch, by_ids: Callable[..., int], by_keys: Callable[..., int], handle: Any,
         *extra: Any) -> int:
    """by_ids(handle, ids, n, *extra) or by_keys(handle, data, offsets, n, *extra), as the
    batch holds ids or keys: every kind's batch functions take these arguments."""
    if isinstance(b, Ids):
        return by_ids(handle, b.ptr, b.n, *extra)
    return by_keys(handle, b.data, b.offsets, b.n, *extra)


def new_results(n: int) -> Tuple[Any, Any]:
    """n zeroed result bytes that the C side fills with 0/1 (numpy bool if numpy is
    present), and the uint8_t pointer to them to pass it."""
    results = numpy.zeros(n, dtype=bool) if numpy is not None else bytearray(n)
    return results, ffi.from_buffer("uint8_t[]", results, require_writable=True)


def new_ids(n: int) -> Any:
    """Room for n ids that the C side fills: a numpy uint64 array if numpy is present, else
    an array('Q')."""
    return numpy.zeros(n, dtype=numpy.uint64) if numpy is not None else array("Q", bytes(8 * n))


def first_ids(ids: Any, count: int) -> Any:
    """The first count ids of a new_ids array: a numpy array, or without numpy a list."""
    return ids[:count] if numpy is not None else ids[:count].tolist()


def update(add_many: Callable[[Any], None], iterables: Iterable[Iterable[Key]]) -> None:
    """set.update for a kind's add_many: each iterable goes in as at most two batches, so that
    one iterable may mix ids and str/bytes keys; a single str or bytes is refused."""
    for items in iterables:
        for part in split(items):
            add_many(part)
