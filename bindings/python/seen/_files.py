"""Closing, bytes and files, written once for every kind around its own C functions.

A kind names its C functions once, in a CFunctions table of the cffi functions themselves,
and derives from NativeObject (close, `with`, repr), adding Serialized (to_bytes, pickle,
from_bytes with an optional key) and Files (save, open) where it has those calls. The shared
code takes the kind's lock (`_lock`) around every call that must not run beside a writer; a
kind without one inherits a lock that does nothing.
"""
import contextlib
from dataclasses import dataclass
from typing import Any, ClassVar, ContextManager, Optional, Type, TypeVar

from . import _handle
from ._handle import PathLike, c_path
from ._native import ffi, lib
from .errors import check, read_errors_with

Kind = TypeVar("Kind", bound="NativeObject")
NO_LOCK = contextlib.nullcontext()


@dataclass(frozen=True)
class CFunctions:
    """One kind's C functions for its lifetime, bytes and files; None where the kind has no
    such call. writable_open is the SEEN_OPEN_* mode of open(read_only=False). Making one
    tells errors.py how to read a failed call's message from the kind's handles."""

    handle_type: str
    free: Any
    last_error: Any
    serialize: Any = None
    deserialize: Any = None
    deserialize_keyed: Any = None
    view: Any = None
    save: Any = None
    open: Any = None
    open_keyed: Any = None
    sync: Any = None
    writable_open: int = lib.SEEN_OPEN_PRIVATE_COPY

    def __post_init__(self) -> None:
        read_errors_with(self.handle_type, self.last_error)


class NativeObject:
    """A Python object around one C handle: close() once and for all, `with kind(...) as x:`
    closing x on leaving the block, and the repr of a closed object.

    A closed object has a NULL handle: every call then fails with InvalidArgumentError."""

    __slots__ = ()

    _c: ClassVar[CFunctions]
    _h: Any
    # A kind whose C calls need exclusive access holds a threading.Lock here instead.
    _lock: ContextManager[Any] = NO_LOCK
    # A view's buffer, which must outlive the handle that reads it (a slot of kinds that view).
    _borrowed: Any = None
    # The secret key it was made with, kept so that a copy is keyed alike (a slot of kinds
    # that may be keyed); None for an unkeyed one.
    _key: Optional[bytes] = None

    def _own(self, handle: Any, borrowed: Any = None, key: Optional[bytes] = None) -> None:
        """Takes handle, freed with this object, as the kind's __init__ does; borrowed is
        the buffer a view reads in place, key the secret the handle was made with. A kind
        keeps what it uses."""
        raise NotImplementedError

    @classmethod
    def _adopt(cls: Type[Kind], out: Any, borrowed: Any = None, key: Optional[bytes] = None) -> Kind:
        """A new object of the handle a C call wrote to out (a handle_type*)."""
        obj = cls.__new__(cls)
        obj._own(out[0], borrowed, key)
        return obj

    def close(self) -> None:
        """Frees it now rather than at garbage collection, after syncing a writable mapped
        file to disk (for kinds with sync). Closing twice is harmless; no other thread may be
        using it."""
        with self._lock:
            if self._h == ffi.NULL:
                return
            handle, self._h = self._h, ffi.NULL
            try:
                if self._c.sync is not None:
                    check(self._c.sync(handle), handle)
            finally:
                ffi.release(handle)
                if self._borrowed is not None:  # only a view has one, in its own slot
                    self._borrowed = None

    def __repr__(self) -> str:
        if self._h == ffi.NULL:  # a closed handle has nothing left to read
            return f"<closed {type(self).__name__}>"
        return self._describe()

    def _describe(self) -> str:
        """The repr of an open object: what it holds."""
        return object.__repr__(self)

    def __enter__(self: Kind) -> Kind:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class Serialized(NativeObject):
    """to_bytes, pickling as those bytes, and from_bytes, for a kind that may be keyed."""

    __slots__ = ()

    def to_bytes(self) -> bytes:
        """The serialized form (docs/FORMAT.md; the class docstring names the kind's
        number): what from_bytes reads back, and for a kind that saves, what save() writes."""
        with self._lock:
            return _handle.serialize(self._c.serialize, self._h)

    @classmethod
    def from_bytes(cls: Type[Kind], data: Any, key: Optional[bytes] = None) -> Kind:
        """A writable copy of serialized bytes (any bytes-like), after checking them; a
        FormatError subclass says what is wrong with bad input. Keyed bytes need their key
        (IncompatibleError without it or with another)."""
        c = cls._c
        out = _handle.deserialize_keyed(c.deserialize, c.deserialize_keyed, c.handle_type,
                                        data, key)
        return cls._adopt(out, key=None if key is None else bytes(key))

    @property
    def keyed(self) -> bool:
        """Whether its items hash under a secret key (made, read or opened with key=...)."""
        return self._key is not None

    def __reduce__(self) -> Any:
        if self.keyed:
            _handle.refuse_keyed_pickle(type(self).__name__)
        return (type(self).from_bytes, (self.to_bytes(),))


class Files(NativeObject):
    """save to a file, and open a saved one, read-only or writable, under its key if it has
    one."""

    __slots__ = ()

    def save(self, path: PathLike) -> None:
        """Writes it to path atomically: a crash leaves the old file or the new one."""
        with self._lock:
            check(self._c.save(self._h, c_path(path)), self._h)

    @classmethod
    def open(cls: Type[Kind], path: PathLike, read_only: bool = True, verify: bool = True,
             key: Optional[bytes] = None) -> Kind:
        """Opens a saved file. read_only=True maps it and answers queries in place (changes
        fail with ReadOnlyError); read_only=False is writable, and the class docstring says
        where the changes go. verify=False skips the payload checksum, for a fast open. A
        keyed file needs its key."""
        c = cls._c
        flags = _handle.open_flags(read_only, verify, c.writable_open)
        out = _handle.open_keyed(c.open, c.open_keyed, c.handle_type, path, flags, key)
        return cls._adopt(out, key=None if key is None else bytes(key))
