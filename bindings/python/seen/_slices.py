"""Block-range slices of a BloomFilter (seen_bloom_read_blocks, seen_bloom_or_blocks): the
pieces seen.spark builds a big filter from, beside _arrow_keys.blocks_of_column, which routes
keys to their blocks."""
from .bloom import BloomFilter
from ._native import ffi, lib
from .errors import check


def read_blocks(f: BloomFilter, first: int, count: int) -> bytes:
    """Blocks [first, first + count) of f, 64 bytes each."""
    out = bytearray(64 * count)
    check(lib.seen_bloom_read_blocks(f._h, first, count, ffi.from_buffer("uint8_t[]", out)), f._h)
    return bytes(out)


def or_blocks(f: BloomFilter, first: int, blocks: bytes) -> None:
    """ORs whole 64-byte blocks into f from block `first` on."""
    check(lib.seen_bloom_or_blocks(f._h, first, len(blocks) // 64,
                                   ffi.from_buffer("uint8_t[]", blocks)), f._h)
