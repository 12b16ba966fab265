"""Bytes, files and closing, written once for every kind around its own C functions.

A kind names its C functions once (CFunctions.of: the C API calls them seen_<kind>_<call>)
and takes the mixins of the calls it has: every kind Closes; Serializes (to_bytes, pickle)
and KeyedBytes (from_bytes with an optional key), Views, Saves, Opens and Syncs where the kind
has those calls. The mixins take the kind's lock (`_lock`) around every call that must not
run beside a writer; a kind without one inherits a lock that does nothing.
"""
import contextlib
from dataclasses import dataclass
from typing import Any, ClassVar, ContextManager, Optional, Type, TypeVar

from . import _handle
from ._handle import PathLike, c_path
from ._native import ffi, lib
from .errors import check

Kind = TypeVar("Kind", bound="Closes")
_NO_LOCK = contextlib.nullcontext()


@dataclass(frozen=True)
class CFunctions:
    """One kind's C functions for bytes and files; None where the kind has no such call.
    writable_open is the SEEN_OPEN_* mode of open(read_only=False)."""

    handle_type: str
    serialize: Any
    deserialize: Any
    deserialize_keyed: Any
    view: Any
    save: Any
    open: Any
    open_keyed: Any
    sync: Any
    writable_open: int

    @classmethod
    def of(cls, kind: str, writable_open: int = lib.SEEN_OPEN_PRIVATE_COPY) -> "CFunctions":
        """The functions of seen_<kind>_*, e.g. of("bloom") for seen_bloom_serialize..."""
        def c(call: str) -> Any:
            return getattr(lib, f"seen_{kind}_{call}", None)
        return cls(f"seen_{kind}*", c("serialize"), c("deserialize"), c("deserialize_keyed"),
                   c("view"), c("save"), c("open"), c("open_keyed"), c("sync"), writable_open)


class Closes:
    """close() once and for all, `with kind(...) as x:` closing x on leaving the block, and
    the repr of a closed object.

    A closed object has a NULL handle: every call then fails with InvalidArgumentError."""

    __slots__ = ()

    _c: ClassVar[CFunctions]
    _h: Any
    # A kind whose C calls need exclusive access holds a threading.Lock here instead.
    _lock: ContextManager[Any] = _NO_LOCK
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


class Serializes(Closes):
    """to_bytes, and pickling as those bytes."""

    __slots__ = ()

    def to_bytes(self) -> bytes:
        """The serialized form (docs/FORMAT.md; the class docstring names the kind's
        number): what from_bytes reads back, and for a kind that saves, what save() writes."""
        with self._lock:
            return _handle.serialize(self._c.serialize, self._h)

    @classmethod
    def from_bytes(cls: Type[Kind], data: Any) -> Kind:  # each kind's, or KeyedBytes'
        raise NotImplementedError

    def _is_keyed(self) -> bool:
        """Whether its bytes open only with a key, which a pickle would have to carry."""
        return self._key is not None

    def __reduce__(self) -> Any:
        if self._is_keyed():
            _handle.refuse_keyed_pickle(type(self).__name__)
        return (type(self).from_bytes, (self.to_bytes(),))


class KeyedBytes(Serializes):
    """from_bytes for a kind that may be keyed."""

    __slots__ = ()

    @property
    def keyed(self) -> bool:
        """Whether its items hash under a secret key (made, read or opened with key=...)."""
        return self._is_keyed()

    @classmethod
    def from_bytes(cls: Type[Kind], data: Any, key: Optional[bytes] = None) -> Kind:
        """A writable copy of serialized bytes (any bytes-like), after checking them; a
        FormatError subclass says what is wrong with bad input. Keyed bytes need their key
        (IncompatibleError without it or with another)."""
        c = cls._c
        out = _handle.deserialize_keyed(c.deserialize, c.deserialize_keyed, c.handle_type,
                                        data, key)
        return cls._adopt(out, key=None if key is None else bytes(key))


class Views(Closes):
    """view: serialized bytes read in place."""

    __slots__ = ()

    @classmethod
    def view(cls: Type[Kind], buffer: Any, verify: bool = True) -> Kind:
        """A read-only object that reads serialized bytes in place, without a copy. It keeps
        buffer alive; do not change its contents while it is open. verify=False skips the
        payload checksum (the header is always checked)."""
        out, src = _handle.view(cls._c.view, cls._c.handle_type, buffer, verify)
        return cls._adopt(out, borrowed=src)


class Saves(Closes):
    """save to a file."""

    __slots__ = ()

    def save(self, path: PathLike) -> None:
        """Writes it to path atomically: a crash leaves the old file or the new one."""
        with self._lock:
            check(self._c.save(self._h, c_path(path)), self._h)


class Opens(Saves):
    """open a saved file, read-only or writable, under its key if it has one."""

    __slots__ = ()

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


class Syncs(Closes):
    """sync for a kind that writes a mapped file in place."""

    __slots__ = ()

    def sync(self) -> None:
        """For one opened with read_only=False: reseals and flushes it to its file."""
        with self._lock:
            check(self._c.sync(self._h), self._h)
