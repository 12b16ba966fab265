"""The C calls around a handle that every kind shares: sized structs to read it, serializing
to and from bytes, viewing a buffer in place, opening a file and its flags.

Each kind passes its own C functions; locking stays with the caller (_files.py), since only
some kinds take a lock.
"""
import os
from typing import Any, Callable, Tuple, Union

from ._native import ffi, lib
from .errors import call, check, invalid_argument, thread_slot

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def was_present_slot() -> Any:
    """This thread's uint8_t for a put's was_present (errors.thread_slot)."""
    return thread_slot("was_present", "uint8_t*")


def c_path(path: PathLike) -> bytes:
    """path for the C API: refuses a NUL byte, which C would take for the end of the path."""
    encoded = os.fsencode(path)
    if b"\0" in encoded:
        raise ValueError(f"embedded null byte in path {encoded!r}")
    return encoded


def sized(struct: str) -> Any:
    """A zeroed struct of the given C type with its size field set: libseen's structs grow
    by appending fields, and the size says which version the caller knows."""
    return ffi.new(struct + "*", {"size": ffi.sizeof(struct)})


def serialize(serialize_fn: Callable[..., int], handle: Any) -> bytes:
    """The handle's serialized bytes: one call for the size, one to write them."""
    size = ffi.new("size_t*")
    check(serialize_fn(handle, ffi.NULL, 0, size), handle)
    buf = ffi.new("uint8_t[]", size[0])
    check(serialize_fn(handle, buf, size[0], size), handle)
    data: bytes = ffi.buffer(buf, size[0])[:]
    return data


def deserialize(deserialize_fn: Callable[..., int], handle_type: str, data: Any) -> Any:
    """The out-pointer (handle_type*) of a writable handle copied from bytes-like data."""
    src = ffi.from_buffer("uint8_t[]", data)
    out = ffi.new(handle_type + "*")
    call(deserialize_fn, src, len(src), out)
    return out


def create_keyed(create_fn: Callable[..., int], keyed_fn: Callable[..., int], handle_type: str,
                 expected_items: int, fpr: float, seed: int, key: Any) -> Any:
    """The handle create_fn(expected_items, fpr, seed) makes, or, given a key, keyed_fn with it
    in place of the seed: a keyed filter takes no seed, its key is its secret."""
    out = ffi.new(handle_type + "*")
    if key is None:
        call(create_fn, expected_items, fpr, seed, out)
    elif seed != 0:
        invalid_argument("a keyed filter takes no seed: the key is its secret")
    else:
        call(keyed_fn, expected_items, fpr, bytes(key), len(key), out)
    return out[0]


def deserialize_keyed(deserialize_fn: Callable[..., int], keyed_fn: Callable[..., int],
                      handle_type: str, data: Any, key: Any) -> Any:
    """deserialize, or, given a key, its keyed form: a keyed handle's bytes need its key."""
    if key is None:
        return deserialize(deserialize_fn, handle_type, data)
    src = ffi.from_buffer("uint8_t[]", data)
    out = ffi.new(handle_type + "*")
    call(keyed_fn, src, len(src), bytes(key), len(key), out)
    return out


def open_keyed(open_fn: Callable[..., int], keyed_fn: Callable[..., int], handle_type: str,
               path: PathLike, flags: int, key: Any) -> Any:
    """The out-pointer of a handle opened from path, under key when one is given."""
    out = ffi.new(handle_type + "*")
    if key is None:
        call(open_fn, c_path(path), flags, out)
    else:
        call(keyed_fn, c_path(path), flags, bytes(key), len(key), out)
    return out


def refuse_keyed_pickle(kind: str) -> None:
    raise TypeError(f"a keyed {kind} does not pickle: its key would have to travel with it; "
                    f"use to_bytes() and {kind}.from_bytes(data, key=...)")


def view(view_fn: Callable[..., int], handle_type: str, buffer: Any,
         verify: bool) -> Tuple[Any, Any]:
    """(out-pointer, borrowed buffer) of a read-only handle reading buffer in place; the
    caller keeps the buffer alive as long as the handle."""
    src = ffi.from_buffer("uint8_t[]", buffer)
    out = ffi.new(handle_type + "*")
    call(view_fn, src, len(src), 0 if verify else lib.SEEN_OPEN_NO_VERIFY, out)
    return out, src


def open_flags(read_only: bool, verify: bool, writable: int) -> int:
    """The SEEN_OPEN_* flags of open(path, read_only, verify), for a kind whose writable mode
    is `writable` (SEEN_OPEN_WRITE_IN_PLACE or SEEN_OPEN_PRIVATE_COPY)."""
    flags: int = lib.SEEN_OPEN_READ_ONLY if read_only else writable
    if not verify:
        flags |= lib.SEEN_OPEN_NO_VERIFY
    return flags
