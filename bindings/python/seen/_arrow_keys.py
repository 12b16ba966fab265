"""The keys of one Arrow column handed to the C batch calls in place, with no Python object
per key: what seen.spark's executors do with each batch Spark gives them.

The key semantics of docs/distributed.md: a string or binary value is its bytes as they are
(Spark does not check UTF-8, so neither do we: invalid UTF-8 is a key like any other), an
integer is a u64 id whose 8 little-endian bytes are its two's complement (-1 is 2**64 - 1),
and a null is no key."""
import importlib
from typing import Any, Callable, Tuple

from ._native import ffi, lib
from .bloom import BloomFilter
from .errors import check

# The Spark types whose columns hold keys, by the name DataType.typeName() gives them.
BYTE_TYPES = ("string", "binary")
INTEGER_TYPES = ("long", "integer", "short", "byte")


def _pa() -> Any:
    # Imported where it is used: in Spark's executors, which hand the column over as Arrow.
    return importlib.import_module("pyarrow")


def _pointer(ctype: str, buffer: Any, first: int) -> Any:
    """buffer's items from the first on; a missing buffer (all keys empty) is one zero item."""
    if buffer is None or buffer.size == 0:
        return ffi.new(ctype, 1)
    return ffi.from_buffer(ctype, buffer) + first


def _ids(column: Any) -> Tuple[Any, Any]:
    """An integer column as uint64_t ids, and the array that owns them (keep it while the
    pointer is used): widened to int64 (sign-extended), whose bytes are the two's complement
    u64."""
    pa = _pa()
    column = column.drop_null().cast(pa.int64())
    return column, _pointer("uint64_t[]", column.buffers()[1], column.offset)


def _byte_keys(column: Any) -> Tuple[Any, Any, Any]:
    """A string or binary column as data + n + 1 uint64_t offsets, and the array that owns
    them (keep it while they are used); a string's bytes are taken as they are, never
    decoded."""
    pa = _pa()
    column = column.drop_null().cast(pa.large_binary())
    _, offsets, data = column.buffers()
    return column, _pointer("uint8_t[]", data, 0), _pointer("uint64_t[]", offsets, column.offset)


def _each(column: Any, by_ids: Callable[..., int], by_keys: Callable[..., int], handle: Any,
          *extra: Any) -> int:
    """by_ids(handle, ids, n, *extra) or by_keys(handle, data, offsets, n, *extra), as the
    column holds integers or bytes: a status, 0 when there is no key."""
    pa = _pa()
    if pa.types.is_integer(column.type):
        owner, ids = _ids(column)
        return by_ids(handle, ids, len(owner), *extra) if len(owner) else 0
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type) \
            or pa.types.is_binary(column.type) or pa.types.is_large_binary(column.type):
        owner, data, offsets = _byte_keys(column)
        return by_keys(handle, data, offsets, len(owner), *extra) if len(owner) else 0
    raise TypeError(f"keys are strings, binaries or integers, not {column.type}")


def add_column(f: BloomFilter, column: Any) -> None:
    """Adds every non-null value of an Arrow array to f."""
    check(_each(column, lib.seen_bloom_add_u64, lib.seen_bloom_add_keys, f._h), f._h)


def blocks_of_column(f: BloomFilter, column: Any) -> Any:
    """The block of f that each non-null value of an Arrow array maps to, as a uint64 Arrow
    array (in the order of column.drop_null())."""
    pa = _pa()
    n = len(column) - column.null_count
    blocks = bytearray(8 * n)
    out = ffi.from_buffer("uint64_t[]", blocks)
    check(_each(column, lib.seen_bloom_blocks_of_u64, lib.seen_bloom_blocks_of_keys, f._h, out),
          f._h)
    return pa.Array.from_buffers(pa.uint64(), n, [None, pa.py_buffer(blocks)])
