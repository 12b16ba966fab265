"""MinHash near-duplicates (docs/minhash.md): the Jaccard similarity of two texts' shingle
sets from fixed-size sketches, and MinHashIndex, which returns every stored text at or above a
similarity threshold, each match verified. Right where SimHash is not: short texts, and texts
with an inserted header, footer or advert.

Shingles are consecutive tokens as SimHash cuts them (folded words; each CJK character a
token): word pairs for English, character pairs for Chinese, by default.
"""
import operator
from typing import Any, List, Optional, SupportsIndex, Tuple

from . import _files, _handle
from ._handle import PathLike
from ._minhash_query import TextQuery
from ._native import ffi, lib
from .errors import call, check
from .near_duplicates import Text, _text_bytes

_TOO_SMALL = lib.SEEN_ERR_BUFFER_TOO_SMALL


def _options(bins: int, shingle: int, seed: int, threshold: float, key: Optional[bytes]) -> Any:
    """seen_minhash_options (a cdata) and the key buffer it points into, kept alive together."""
    key_buffer = ffi.from_buffer("uint8_t[]", key) if key is not None else ffi.NULL
    opts = ffi.new("seen_minhash_options*", {
        "size": ffi.sizeof("seen_minhash_options"), "bins": bins, "shingle": shingle,
        "seed": seed, "threshold": threshold, "key": key_buffer,
        "key_len": len(key) if key is not None else 0,
    })
    return opts, key_buffer


def minhash(text: Text, bins: int = 128, shingle: int = 2, seed: int = 0,
            key: Optional[bytes] = None) -> List[int]:
    """The sketch of a text: `bins` bin values (a power of two in 16..1024)."""
    opts, _keep = _options(bins, shingle, seed, 0, key)
    data = _text_bytes(text)
    out = ffi.new("uint32_t[]", bins)
    call(lib.seen_minhash_sketch_text, data, len(data), opts, out, bins)
    return list(out)


def similarity(a: List[int], b: List[int]) -> float:
    """The Jaccard estimate of two sketches of one size (0 for an empty text's)."""
    if len(a) != len(b):
        raise ValueError(f"sketches of {len(a)} and {len(b)} bins do not compare")
    return float(lib.seen_minhash_similarity(ffi.new("uint32_t[]", a), ffi.new("uint32_t[]", b), len(a)))


class MinHashIndex(TextQuery, _files.NativeObject):
    """Texts by id, and for a query text every stored one whose estimated Jaccard similarity
    is at least `threshold`, most similar first. Queries may run in several threads at once,
    not beside add or remove.

        >>> import seen
        >>> index = seen.MinHashIndex(threshold=0.7)
        >>> index.add(1, "the committee met on tuesday to review the annual budget and the library hours")
        >>> index.add(2, "rain is expected on friday with strong winds along the coast and snow inland")
        >>> [(i, round(s, 1) >= 0.7) for i, s in index.query(
        ...     "The committee met on Tuesday to review the annual budget, and the library hours!")]
        [(1, True)]
    """

    __slots__ = ("_h",)
    # Its deserialize and open take the key their own way (below).
    _c = _files.CFunctions("seen_minhash_index*", lib.seen_minhash_index_free,
                           lib.seen_minhash_index_last_error)

    def __init__(self, threshold: float = 0.8, bins: int = 128, shingle: int = 2, seed: int = 0,
                 key: Optional[bytes] = None) -> None:
        opts, _keep = _options(bins, shingle, seed, threshold, key)
        out = ffi.new("seen_minhash_index**")
        call(lib.seen_minhash_index_create, opts, out)
        self._own(out[0])

    def _own(self, handle: Any, borrowed: Any = None, key: Optional[bytes] = None) -> None:
        # borrowed, key: it has no view and does not pickle or copy, so it need not keep them
        self._h = ffi.gc(handle, self._c.free)
        self._bind_query(int(ffi.cast("uintptr_t", handle)))

    def add(self, id: SupportsIndex, text: Text) -> None:
        """Stores text under id, replacing what id held."""
        data = _text_bytes(text)
        check(lib.seen_minhash_index_add_text(self._h, operator.index(id), data, len(data)), self._h)

    def remove(self, id: SupportsIndex) -> bool:
        """Removes id; returns whether it was stored."""
        removed = ffi.new("int*")
        check(lib.seen_minhash_index_remove(self._h, operator.index(id), removed), self._h)
        return bool(removed[0])

    def query(self, text: Text) -> List[Tuple[int, float]]:
        """(id, estimated Jaccard similarity) of every stored text at or above the threshold,
        most similar first."""
        matches = self._query_text(text)  # str and bytes, in C (_minhash_query.c says why)
        if matches is not None:
            return matches
        data = _text_bytes(text)
        found = ffi.new("size_t*")
        cap = 16
        while True:
            ids = ffi.new("uint64_t[]", cap)
            sims = ffi.new("double[]", cap)
            status = lib.seen_minhash_index_query_text(self._h, data, len(data), ids, sims, cap, found)
            if status != _TOO_SMALL:
                check(status, self._h)
                return [(int(ids[i]), float(sims[i])) for i in range(found[0])]
            cap = found[0]

    def close(self) -> None:
        """Unbinds the C query, then frees the index now rather than at garbage collection.
        Closing twice is harmless."""
        self._bind_query(0)
        super().close()

    def save(self, path: PathLike) -> None:
        """Writes the index to path atomically: a crash leaves the old file or the new one."""
        check(lib.seen_minhash_index_save(self._h, _handle.c_path(path)), self._h)

    def to_bytes(self) -> bytes:
        """The serialized index (kind 7 of docs/FORMAT.md), the same bytes as save() writes."""
        return _handle.serialize(lib.seen_minhash_index_serialize, self._h)

    @classmethod
    def from_bytes(cls, data: Any, key: Optional[bytes] = None) -> "MinHashIndex":
        """A writable index copied from serialized bytes (any bytes-like), after checking them.
        A keyed index needs its key (else IncompatibleError); the threshold and sketch options
        come from the bytes."""
        src = ffi.from_buffer("uint8_t[]", data)
        key_buffer = ffi.from_buffer("uint8_t[]", key) if key is not None else ffi.NULL
        out = ffi.new("seen_minhash_index**")
        call(lib.seen_minhash_index_deserialize, src, len(src), key_buffer, len(key or b""), out)
        return cls._adopt(out)

    @classmethod
    def open(cls, path: PathLike, key: Optional[bytes] = None, read_only: bool = False,
             verify: bool = True) -> "MinHashIndex":
        """Opens a saved index, with the key rule of from_bytes. read_only=True maps the file
        and queries it in place, without copying its tables (add and remove raise
        ReadOnlyError); read_only=False reads a writable copy, and the file changes only on the
        next save(). verify=False skips the payload checksum (the tables are still checked)."""
        key_buffer = ffi.from_buffer("uint8_t[]", key) if key is not None else ffi.NULL
        out = ffi.new("seen_minhash_index**")
        flags = _handle.open_flags(read_only, verify, lib.SEEN_OPEN_PRIVATE_COPY)
        call(lib.seen_minhash_index_open, _handle.c_path(path), flags, key_buffer,
             len(key or b""), out)
        return cls._adopt(out)

    def __len__(self) -> int:
        texts = ffi.new("uint64_t*")
        check(lib.seen_minhash_index_size(self._h, texts, ffi.NULL), self._h)
        return int(texts[0])

    @property
    def bytes(self) -> int:
        """Memory the index holds."""
        held = ffi.new("uint64_t*")
        check(lib.seen_minhash_index_size(self._h, ffi.NULL, held), self._h)
        return int(held[0])
