"""Sizing without a filter (seen_bloom_size_for, seen_bloom_predict_fpr): the bytes and k that
BloomFilter(expected_items, fpr) chooses, or the rate a budget of bytes reaches. A blocked
filter needs a little more than the textbook formula the peers print, so plan memory with these.

    >>> import seen
    >>> seen.size_for(1000, 0.01)
    Sizing(bytes=1280, k=5, fpr=0.01)
    >>> seen.predict_fpr(1000, 1280).fpr < 0.01
    True
"""
from typing import NamedTuple

from ._native import ffi, lib
from .errors import call


# The rate a filter gets when no fpr is given: capi/seen.h's SEEN_DEFAULT_FPR, `seen build`'s.
DEFAULT_FPR = 0.01


class Sizing(NamedTuple):
    """A filter's size in bytes, its bits per key k, and its false-positive rate."""
    bytes: int
    k: int
    fpr: float


def size_for(expected_items: int, fpr: float) -> Sizing:
    """The bytes and k that deliver fpr after expected_items distinct keys. InvalidArgumentError
    for an fpr outside (0, 1), TooLargeError for one out of reach (both ValueErrors)."""
    size, k = ffi.new("uint64_t*"), ffi.new("uint32_t*")
    call(lib.seen_bloom_size_for, expected_items, fpr, size, k)
    return Sizing(int(size[0]), int(k[0]), fpr)


def predict_fpr(expected_items: int, size_bytes: int) -> Sizing:
    """The rate expected_items keys give in size_bytes (rounded up to 64-byte blocks), with the
    k that suits them best."""
    fpr, k = ffi.new("double*"), ffi.new("uint32_t*")
    call(lib.seen_bloom_predict_fpr, expected_items, size_bytes, fpr, k)
    return Sizing(size_bytes, int(k[0]), float(fpr[0]))
