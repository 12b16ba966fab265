"""SimHash near-duplicates: 64-bit fingerprints of text or of weighted features, the exact
(128-bit) fingerprint of the normalized text, and SimHashIndex, which returns every stored
fingerprint within Hamming distance k of a query, exactly (docs/simhash.md).

Fingerprints are computed by libseen's tokenizer and hashes, so they are equal in every
language. Text is str (as UTF-8) or bytes; invalid UTF-8 and NUL act as separators, never as
errors, and a text without tokens (empty, only punctuation) has simhash 0.
"""
import operator
import threading
from array import array
from dataclasses import dataclass
from itertools import accumulate
from typing import (Any, Iterable, Iterator, List, Literal, Mapping, NamedTuple, Optional, Sequence,
                    SupportsIndex, Tuple, Union, overload)

from . import _batches, _files, _handle
from ._handle import PathLike
from ._native import ffi, lib
from .errors import call, check, invalid_argument, raise_status

try:
    import numpy
except ImportError:  # numpy is optional, as for the other batches
    numpy = None  # type: ignore[assignment]

Text = Union[str, bytes, bytearray, memoryview]
# A caller-made feature: an int is taken as its 64-bit hash, str/bytes are hashed by libseen.
Feature = Union[Text, SupportsIndex]

_NULL = ffi.NULL
_distance = lib.seen_simhash_distance
_text = lib.seen_simhash_text
# Room for this many matches of one query before it asks the library how many there are.
_QUERY_ROOM = 64
_query = lib.seen_simhash_index_query
_any = lib.seen_simhash_index_any
_unpack = ffi.unpack
_TOO_SMALL = lib.SEEN_ERR_BUFFER_TOO_SMALL


class _Scratch(threading.local):
    """Each thread's own buffers for single queries: allocating them per call would cost more
    than the query."""

    def __init__(self) -> None:
        self.ids = ffi.new("uint64_t[]", _QUERY_ROOM)
        self.distances = ffi.new("uint32_t[]", _QUERY_ROOM)
        self.found = ffi.new("size_t*")
        self.one = ffi.new("uint64_t[1]")
        self.flag = ffi.new("uint8_t[1]")


_scratch = _Scratch()


def _text_bytes(text: Any) -> bytes:
    """The UTF-8 bytes of a text. A str with lone surrogates keeps them as (invalid) bytes,
    which the tokenizer treats as separators, as it does any invalid UTF-8."""
    if isinstance(text, str):
        return text.encode("utf-8", "surrogatepass")
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text)
    raise TypeError(f"a text is str or bytes, not {type(text).__name__}")


class IdfTable:
    """Token weights for fingerprints of text: each occurrence of a token in the table weighs
    its weight instead of 1, every other token weighs default_weight. Tokens are normalized
    like text ("Hello" and "hello" are one token). Immutable, so threads may share it.

        >>> idf = IdfTable({"the": 0.1, "seen": 4.0})
        >>> len(idf)
        2
    """

    __slots__ = ("_h", "_n", "default_weight")

    def __init__(self, weights: Mapping[Text, float], default_weight: float = 1.0) -> None:
        tokens = [_text_bytes(token) for token in weights]
        values = array("f", (float(weights[token]) for token in weights))
        offsets = array("Q", accumulate(map(len, tokens), initial=0))
        data = b"".join(tokens)
        out = ffi.new("seen_simhash_idf**")
        call(lib.seen_simhash_idf_create, 
            ffi.from_buffer("uint8_t[]", data), ffi.from_buffer("uint64_t[]", offsets),
            ffi.from_buffer("float[]", values), len(tokens), float(default_weight), out)
        self._h = ffi.gc(out[0], lib.seen_simhash_idf_free)
        self._n = len(tokens)
        self.default_weight = float(default_weight)

    def __len__(self) -> int:
        return self._n

    def __repr__(self) -> str:
        return f"<IdfTable of {self._n} tokens, default_weight={self.default_weight}>"


def _options(ngram: int, idf: Optional[IdfTable], seed: int) -> Any:
    n = operator.index(ngram)
    if not 1 <= n <= 8:
        invalid_argument(f"ngram must be 1 to 8, not {n}")
    if idf is not None and not isinstance(idf, IdfTable):
        raise TypeError(f"idf is a seen.IdfTable, not {type(idf).__name__}")
    return ffi.new("seen_simhash_options*", {
        "size": ffi.sizeof("seen_simhash_options"), "ngram": n,
        "seed": operator.index(seed), "idf": idf._h if idf is not None else _NULL})


@dataclass(frozen=True)
class Fingerprint:
    """The fingerprints of one text: simhash (64-bit, near-duplicates), exact (the 16 bytes of
    the XXH3-128 of the normalized text, high half first: equal for texts that differ only in
    case, width, punctuation and whitespace) and features (tokens counted, with repeats)."""

    simhash: int
    exact: bytes
    features: int

    @property
    def exact_int(self) -> int:
        """The exact fingerprint as a 128-bit int."""
        return int.from_bytes(self.exact, "big")


def fingerprint(text: Text, ngram: int = 2, idf: Optional[IdfTable] = None,
                seed: int = 0) -> Fingerprint:
    """Both fingerprints of a text (str as UTF-8, or bytes), and how many tokens it has.
    ngram is the CJK shingle length (1..8); seed the XXH3 seed of every feature hash."""
    data = _text_bytes(text)
    out = _handle.sized("seen_simhash_fingerprint")
    call(_text, data, len(data), _options(ngram, idf, seed), out)
    exact = int(out.exact_high).to_bytes(8, "big") + int(out.exact_low).to_bytes(8, "big")
    return Fingerprint(int(out.simhash), exact, int(out.features))


def simhash(text: Text, ngram: int = 2, idf: Optional[IdfTable] = None, seed: int = 0) -> int:
    """The 64-bit SimHash fingerprint of a text (str as UTF-8, or bytes); 0 for a text
    without tokens."""
    return fingerprint(text, ngram, idf, seed).simhash


@overload
def exact_fingerprint(text: Text, *, as_int: Literal[False] = ...) -> bytes: ...
@overload
def exact_fingerprint(text: Text, *, as_int: Literal[True]) -> int: ...
def exact_fingerprint(text: Text, *, as_int: bool = False) -> Union[bytes, int]:
    """The exact-duplicate fingerprint: XXH3-128 of the normalized text, as 16 bytes (high
    half first) or, with as_int=True, as an int."""
    fp = fingerprint(text)
    return fp.exact_int if as_int else fp.exact


class TextFingerprints(NamedTuple):
    """simhash_many(..., exact=True): simhashes[i] is text i's simhash, exact[i] its exact
    fingerprint as (high, low) uint64 (numpy shape (n, 2); without numpy a flat array('Q'))."""
    simhashes: Any
    exact: Any


def _pack_texts(texts: Sequence[Any]) -> Tuple[Any, Any, int]:
    encoded = [_text_bytes(t) for t in texts]
    offsets = array("Q", accumulate(map(len, encoded), initial=0))
    data = b"".join(encoded)
    return ffi.from_buffer("uint8_t[]", data), ffi.from_buffer("uint64_t[]", offsets), len(encoded)


def simhash_many(texts: Iterable[Text], ngram: int = 2, idf: Optional[IdfTable] = None,
                 seed: int = 0, exact: bool = False) -> Any:
    """The simhashes of many texts in one call: a numpy uint64 array (array('Q') without
    numpy). With exact=True, a TextFingerprints of the simhashes and exact fingerprints."""
    if isinstance(texts, (str, bytes)):
        raise TypeError("simhash_many takes a sequence of texts; use simhash for one")
    data, offsets, n = _pack_texts(texts if isinstance(texts, (list, tuple)) else list(texts))
    hashes = _batches.new_ids(n)
    exact_out = _batches.new_ids(2 * n) if exact else None
    call(lib.seen_simhash_text_batch, 
        data, offsets, n, _options(ngram, idf, seed),
        ffi.from_buffer("uint64_t[]", hashes, require_writable=True) if n else _NULL,
        ffi.from_buffer("uint64_t[]", exact_out, require_writable=True) if exact and n else _NULL)
    if exact_out is None:
        return hashes
    if numpy is not None:
        exact_out = exact_out.reshape(n, 2)
    return TextFingerprints(hashes, exact_out)


def simhash_features(features: Iterable[Union[Feature, Tuple[Feature, float]]],
                     seed: int = 0, key: Optional[bytes] = None) -> int:
    """The fingerprint of caller-made features: each is (feature, weight) or a bare feature
    (weight 1). A feature is an int, taken as its 64-bit hash, or str/bytes, hashed with
    XXH3-64 and seed, or, given a secret key (16 to 64 bytes), with SipHash under it
    (docs/SECURITY.md); one call takes one kind. Weights must be finite; no features gives 0."""
    items: List[Any] = []
    weights = array("f")
    for item in features:
        if isinstance(item, tuple):
            feature, weight = item
        else:
            feature, weight = item, 1.0
        items.append(feature)
        weights.append(float(weight))
    out = ffi.new("uint64_t*")
    if not items:
        return 0
    w = ffi.from_buffer("float[]", weights)
    if isinstance(items[0], _batches.BYTE_KEYS):
        if not all(isinstance(f, _batches.BYTE_KEYS) for f in items):
            raise TypeError("features are all int hashes or all str/bytes, not a mix")
        data, offsets, n = _pack_texts(items)
        if key is None:
            call(lib.seen_simhash_strings, data, offsets, w, n, operator.index(seed), out)
        else:
            call(lib.seen_simhash_strings_keyed, data, offsets, w, n, operator.index(seed),
                 ffi.from_buffer("uint8_t[]", key), len(key), out)
    elif key is not None:
        raise TypeError("a key hashes str/bytes features; int features are hashes already")
    else:
        hashes = array("Q", map(operator.index, items))  # OverflowError outside 0..2**64-1
        call(lib.seen_simhash_hashes, ffi.from_buffer("uint64_t[]", hashes), w, len(hashes), out)
    return int(out[0])


def hamming(a: SupportsIndex, b: SupportsIndex) -> int:
    """The Hamming distance of two 64-bit fingerprints: the number of differing bits."""
    return int(_distance(operator.index(a), operator.index(b)))


# --- the index ---------------------------------------------------------------------------

class QueryResults:
    """The matches of query_many: results[i] is the list of (id, distance) of query i, sorted
    by distance then id. offsets, ids and distances are the flat arrays (numpy if present):
    query i's matches are ids[offsets[i]:offsets[i + 1]]."""

    __slots__ = ("offsets", "ids", "distances")

    def __init__(self, offsets: Any, ids: Any, distances: Any) -> None:
        self.offsets, self.ids, self.distances = offsets, ids, distances

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> List[Tuple[int, int]]:
        if not -len(self) <= i < len(self):
            raise IndexError("query index out of range")
        i %= len(self)
        lo, hi = int(self.offsets[i]), int(self.offsets[i + 1])
        return list(zip(map(int, self.ids[lo:hi]), map(int, self.distances[lo:hi])))

    def __iter__(self) -> Iterator[List[Tuple[int, int]]]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"<QueryResults of {len(self)} queries, {int(self.offsets[-1])} matches>"


class SimHashIndex(_files.NativeObject):
    """Every stored (id, fingerprint) within Hamming distance k of a query, exactly: never a
    miss against brute force. k (0..7) is the largest distance queries may ask for; up to 3
    it costs about 30 bytes per fingerprint (docs/simhash.md gives the cost of each k).

    The index is a multiset of (id, fingerprint) pairs: adding an id twice keeps both pairs
    and queries report both; remove(id) takes every pair of that id. Queries may run from
    many threads at once (cffi releases the GIL); add, remove and close need the index to
    themselves. A closed index raises InvalidArgumentError on every call. Its bytes and
    files are kind 6 of docs/FORMAT.md.
    """

    __slots__ = ("_h", "_borrowed", "_k")
    _c = _files.CFunctions("seen_simhash_index*", lib.seen_simhash_index_free,
                           lib.seen_simhash_index_last_error)

    def __init__(self, k: int = 3) -> None:
        out = ffi.new("seen_simhash_index**")
        call(lib.seen_simhash_index_create, operator.index(k), out)
        self._own(out[0])

    def _own(self, handle: Any, borrowed: Any = None, key: Optional[bytes] = None) -> None:
        self._h = ffi.gc(handle, self._c.free)  # key: it never has one
        self._borrowed = borrowed
        self._k = int(self._info().max_k)

    def _k_or(self, k: Optional[SupportsIndex]) -> int:
        return self._k if k is None else operator.index(k)

    # --- adds and removes ----------------------------------------------------------------

    def add(self, id: SupportsIndex, fingerprint: SupportsIndex) -> None:
        """Adds the pair (id, fingerprint); ids and fingerprints are u64."""
        fp = ffi.new("uint64_t[1]", [operator.index(fingerprint)])
        ident = ffi.new("uint64_t[1]", [operator.index(id)])
        check(lib.seen_simhash_index_add(self._h, fp, ident, 1), self._h)

    def add_many(self, ids: Any, fingerprints: Any) -> None:
        """Adds pairs (ids[i], fingerprints[i]) in one call: uint64 buffers (numpy arrays,
        array('Q')) are used in place, sequences of ints are converted once."""
        i, f = _batches.ids(ids), _batches.ids(fingerprints)
        if i.n != f.n:
            invalid_argument(f"add_many got {i.n} ids but {f.n} fingerprints")
        check(lib.seen_simhash_index_add(self._h, f.ptr, i.ptr, i.n), self._h)

    def remove(self, id: SupportsIndex) -> int:
        """Removes every pair of this id; returns how many (0 if the id is not there).
        O(size of the index): remove many ids at once with remove_many."""
        return self.remove_many([operator.index(id)])

    def remove_many(self, ids: Any) -> int:
        """Removes every pair whose id is among ids; returns how many pairs went."""
        b = _batches.ids(ids)
        removed = ffi.new("uint64_t*")
        check(lib.seen_simhash_index_remove(self._h, b.ptr, b.n, removed), self._h)
        return int(removed[0])

    def build(self) -> None:
        """Rebuilds the tables now (the first query after adds or removes does it otherwise)."""
        check(lib.seen_simhash_index_build(self._h), self._h)

    # --- queries -------------------------------------------------------------------------

    def query(self, fingerprint: SupportsIndex, k: Optional[SupportsIndex] = None
              ) -> List[Tuple[int, int]]:
        """Every stored (id, distance) within k (default: the index's k) of fingerprint,
        sorted by distance then id."""
        fp, kk = operator.index(fingerprint), self._k if k is None else operator.index(k)
        b = _scratch
        ids, distances, found = b.ids, b.distances, b.found
        status = _query(self._h, fp, kk, ids, distances, _QUERY_ROOM, found)
        while status == _TOO_SMALL:  # more matches than room: ask again
            room = found[0]
            ids, distances = ffi.new("uint64_t[]", room), ffi.new("uint32_t[]", room)
            status = _query(self._h, fp, kk, ids, distances, room, found)
        if status:
            raise_status(status, self._h)
        n = found[0]
        return list(zip(_unpack(ids, n), _unpack(distances, n))) if n else []

    def any(self, fingerprint: SupportsIndex, k: Optional[SupportsIndex] = None) -> bool:
        """True if any stored fingerprint lies within k of fingerprint (stops at the first)."""
        b = _scratch
        b.one[0] = fingerprint
        status = _any(self._h, b.one, 1, self._k if k is None else operator.index(k), b.flag)
        if status:
            raise_status(status, self._h)
        return bool(b.flag[0] == 1)

    def any_many(self, fingerprints: Any, k: Optional[SupportsIndex] = None) -> Any:
        """any() for each of many fingerprints in one call: a numpy bool array (a bytearray
        of 0/1 without numpy)."""
        b = _batches.ids(fingerprints)
        results, out = _batches.new_results(b.n)
        check(lib.seen_simhash_index_any(self._h, b.ptr, b.n, self._k_or(k), out), self._h)
        return results

    def query_many(self, fingerprints: Any, k: Optional[SupportsIndex] = None) -> QueryResults:
        """The matches of many queries in one call (fingerprints as for add_many):
        results[i] is query i's list of (id, distance)."""
        b = _batches.ids(fingerprints)
        kk = self._k_or(k)
        offsets = _batches.new_ids(b.n + 1)
        offsets_ptr = ffi.from_buffer("uint64_t[]", offsets, require_writable=True)
        room = 4 * b.n
        while True:
            ids = _batches.new_ids(room)
            distances = _new_u32(room)
            status = lib.seen_simhash_index_query_batch(
                self._h, b.ptr, b.n, kk, offsets_ptr,
                ffi.from_buffer("uint64_t[]", ids, require_writable=True) if room else _NULL,
                ffi.from_buffer("uint32_t[]", distances, require_writable=True) if room else _NULL,
                room)
            if status == lib.SEEN_ERR_BUFFER_TOO_SMALL:
                room = int(offsets[b.n])
                continue
            if status:
                raise_status(status, self._h)
            total = int(offsets[b.n])
            return QueryResults(offsets, ids[:total], distances[:total])

    def clusters(self, k: Optional[SupportsIndex] = None, min_size: int = 2) -> List[List[int]]:
        """All-pairs clustering that never chains: the pair with the smallest id leads a group
        and takes, in id order, each pair within k of it that is within k of every member
        taken so far; then the next pair not yet grouped, and so on. Every two members are
        within k of each other; the smallest id is the group's representative.
        Returns the groups of at least min_size pairs (default 2: the near-duplicates; 1
        gives every pair its group), each a list of ids. An id added twice appears twice."""
        count = ffi.new("size_t*")
        kk = self._k_or(k)
        while True:
            room = len(self)
            ids = ffi.new("uint64_t[]", room)
            groups = ffi.new("uint32_t[]", room)
            status = lib.seen_simhash_index_clusters(self._h, kk, ids, groups, room, count)
            if status != lib.SEEN_ERR_BUFFER_TOO_SMALL:
                break
        if status:
            raise_status(status, self._h)
        n = count[0]
        result: List[List[int]] = []
        for ident, group in zip(ids[0:n], groups[0:n]):
            if group == len(result):
                result.append([])
            result[group].append(ident)
        return [g for g in result if len(g) >= min_size]

    # --- state ---------------------------------------------------------------------------

    def _info(self) -> Any:
        info = _handle.sized("seen_simhash_index_info")
        check(lib.seen_simhash_index_get_info(self._h, info), self._h)
        return info

    def __len__(self) -> int:
        """The number of (id, fingerprint) pairs."""
        return int(self._info().count)

    @property
    def k(self) -> int:
        """The largest k queries may use (the default k of every query)."""
        return self._k

    @property
    def memory_bytes(self) -> int:
        """Bytes of the built tables (builds them if needed)."""
        return int(self._info().bytes)

    @property
    def read_only(self) -> bool:
        """True for SimHashIndex.open and SimHashIndex.view: add and remove then fail."""
        return bool(self._info().read_only)

    def _describe(self) -> str:
        return f"<SimHashIndex of {len(self)} fingerprints, k={self._k}>"

    # --- bytes and files ----------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The serialized index (kind 6 of docs/FORMAT.md): what from_bytes reads back and
        save() writes."""
        return _handle.serialize(lib.seen_simhash_index_serialize, self._h)

    def __reduce__(self) -> Any:
        return (type(self).from_bytes, (self.to_bytes(),))

    def save(self, path: PathLike) -> None:
        """Writes the index to path atomically: a crash leaves the old file or the new one."""
        check(lib.seen_simhash_index_save(self._h, _handle.c_path(path)), self._h)

    @classmethod
    def view(cls, buffer: Any, verify: bool = True) -> "SimHashIndex":
        """A read-only index over serialized bytes in place, without a copy; it keeps buffer
        alive, whose contents must not change while it is open. verify=False skips the
        payload checksum."""
        out, src = _handle.view(lib.seen_simhash_index_view, "seen_simhash_index*", buffer,
                                verify)
        return cls._adopt(out, borrowed=src)

    @classmethod
    def from_bytes(cls, data: Any) -> "SimHashIndex":
        """A writable index copied from serialized bytes (any bytes-like), after checking them;
        a FormatError subclass says what is wrong with bad input."""
        return cls._adopt(
            _handle.deserialize(lib.seen_simhash_index_deserialize, "seen_simhash_index*", data))

    @classmethod
    def open(cls, path: PathLike, verify: bool = True) -> "SimHashIndex":
        """Maps a saved index read-only and answers queries in place (add and remove raise
        ReadOnlyError; from_bytes(open(path, 'rb').read()) gives a writable copy).
        verify=False skips the payload checksum, for a fast open."""
        flags = lib.SEEN_OPEN_READ_ONLY | (0 if verify else lib.SEEN_OPEN_NO_VERIFY)
        out = ffi.new("seen_simhash_index**")
        call(lib.seen_simhash_index_open, _handle.c_path(path), flags, out)
        return cls._adopt(out)


def _new_u32(n: int) -> Any:
    if numpy is not None:
        return numpy.zeros(n, dtype=numpy.uint32)
    return array("I", bytes(4 * n))
