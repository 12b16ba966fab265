"""Block-range slices of a BloomFilter (seen_bloom_blocks_of_keys, seen_bloom_read_blocks,
seen_bloom_or_blocks): the pieces seen.spark builds a big filter from. Keys here are bytes,
so an integer id must come as its 8 little-endian bytes, which is how it hashes."""
from typing import Any, List, Sequence

from . import _batches
from .bloom import BloomFilter
from ._native import ffi, lib
from .errors import check


def key_bytes(key: Any) -> bytes:
    """A key as the bytes it hashes as: str as UTF-8, int as 8 little-endian bytes."""
    if isinstance(key, int):
        return key.to_bytes(8, "little")
    if isinstance(key, str):
        return key.encode()
    return bytes(key)


def blocks_of(f: BloomFilter, keys: Sequence[bytes]) -> List[int]:
    """The block of f each byte key maps to."""
    b = _batches.batch(keys)
    if not isinstance(b, _batches.Keys):
        raise TypeError("blocks_of takes byte keys; pass ids as key_bytes(id)")
    blocks = ffi.new("uint64_t[]", max(1, b.n))
    check(lib.seen_bloom_blocks_of_keys(f._h, b.data, b.offsets, b.n, blocks), f._h)
    return list(blocks[0:b.n])


def read_blocks(f: BloomFilter, first: int, count: int) -> bytes:
    """Blocks [first, first + count) of f, 64 bytes each."""
    out = bytearray(64 * count)
    check(lib.seen_bloom_read_blocks(f._h, first, count, ffi.from_buffer("uint8_t[]", out)), f._h)
    return bytes(out)


def or_blocks(f: BloomFilter, first: int, blocks: bytes) -> None:
    """ORs whole 64-byte blocks into f from block `first` on."""
    check(lib.seen_bloom_or_blocks(f._h, first, len(blocks) // 64,
                                   ffi.from_buffer("uint8_t[]", blocks)), f._h)
