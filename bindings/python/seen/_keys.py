"""One key of add/in/remove passed to the C function for its kind: ids (int and integer
types) as u64, str as UTF-8, bytes and other buffers in place.
"""
import operator
from typing import Any, Callable, Optional, SupportsIndex, Tuple, Union

from ._native import ffi

# SupportsIndex: int, and integer types such as numpy.uint64.
Key = Union[str, bytes, bytearray, memoryview, SupportsIndex]


def call(by_id: Callable[..., int], by_key: Callable[..., int], handle: Any, key: Any,
         *extra: Any) -> int:
    """by_id(handle, id, *extra) or by_key(handle, data, length, *extra), as key is an id
    or bytes; the common types are tested first, as this is the single-key hot path."""
    if isinstance(key, int):
        return by_id(handle, key, *extra)
    if isinstance(key, bytes):
        return by_key(handle, key, len(key), *extra)
    if isinstance(key, str):
        b = key.encode()
        return by_key(handle, b, len(b), *extra)
    as_id = _as_id(key)
    if as_id is not None:
        return by_id(handle, as_id, *extra)
    return by_key(handle, *_as_bytes(key), *extra)


def _as_id(key: Any) -> Optional[int]:
    """An integer-like key (numpy integers, bool) as an int, or None for other keys."""
    try:
        return operator.index(key)
    except TypeError:
        return None


def _as_bytes(key: Any) -> Tuple[Any, int]:
    """A bytes-like key as (cdata, length), in place."""
    try:
        buf = ffi.from_buffer(key)
    except TypeError:
        raise TypeError(f"a key is str, bytes or int, not {type(key).__name__}") from None
    return buf, len(buf)
