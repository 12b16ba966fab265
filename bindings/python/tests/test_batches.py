"""add_many / contains_many: every accepted batch form, zero copy, and the result types."""
import tracemalloc
from array import array

import numpy
import pytest

import seen
from seen import _batches


def test_numpy_ids_give_a_numpy_bool_array():
    f = seen.BloomFilter(10_000, 0.01)
    ids = numpy.arange(5_000, dtype=numpy.uint64)
    f.add_many(ids)
    found = f.contains_many(ids)
    assert found.dtype == numpy.bool_ and found.shape == (5_000,)
    assert found.all()


@pytest.mark.parametrize("make", [lambda ids: array("Q", ids), list, tuple, iter, lambda ids: ids],
                         ids=["array", "list", "tuple", "iterator", "range"])
def test_other_id_batches(make):
    f = seen.BloomFilter(10_000, 0.01)
    f.add_many(make(range(1000)))
    assert f.contains_many(make(range(1000))).all()
    assert all(i in f for i in range(1000))


def test_key_batches_of_str_and_bytes_pack_like_single_keys():
    f = seen.BloomFilter(10_000, 0.01)
    keys = ["alice", b"bob", "", b"", "日本語", bytearray(b"x")]
    f.add_many(keys)
    assert f.contains_many(keys).all()
    assert all(k in f for k in keys)


def test_batch_answers_equal_single_answers():
    f = seen.BloomFilter(1000, 0.2)
    f.update(range(0, 2000, 2))
    f.update(str(i) for i in range(0, 2000, 2))
    ids = list(range(2000))
    words = [str(i) for i in ids]
    assert list(f.contains_many(ids)) == [i in f for i in ids]
    assert list(f.contains_many(words)) == [w in f for w in words]
    blobs = [w.encode() for w in words]
    assert list(f.contains_many(blobs)) == [b in f for b in blobs]
    # Every answer the same would hide a single-key path that ignores the filter.
    assert 0 < sum(i in f for i in ids) < len(ids)


def test_empty_batches():
    f = seen.BloomFilter(100, 0.01)
    f.add_many([])
    f.add_many(numpy.empty(0, dtype=numpy.uint64))
    assert len(f.contains_many([])) == 0
    assert not f


def test_without_numpy_results_are_a_bytearray(monkeypatch):
    monkeypatch.setattr(_batches, "numpy", None)
    f = seen.BloomFilter(100, 0.01)
    f.add_many([1, 2])
    assert f.contains_many([1, 2, 3]) in (bytearray(b"\x01\x01\x00"), bytearray(b"\x01\x01\x01"))
    assert type(f.contains_many([1])) is bytearray


def test_numpy_ids_are_used_in_place():
    ids = numpy.arange(1_000_000, dtype=numpy.uint64)  # 8 MB
    f = seen.BloomFilter(1_000_000, 0.01)
    tracemalloc.start()
    try:
        f.add_many(ids)
        found = f.contains_many(ids)  # the 1 MB result is the only allocation
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert found.all()
    assert peak < 2_000_000


@pytest.mark.parametrize("bad, error", [
    (numpy.arange(3, dtype=numpy.int64), TypeError),  # signed: the caller must say uint64
    (numpy.arange(3, dtype=">u8"), TypeError),  # big-endian
    (numpy.arange(6, dtype=numpy.uint64)[::2], TypeError),  # not contiguous
    (array("I", [1, 2]), TypeError),  # 32-bit
    ("abc", TypeError),  # one key, not a batch
    (b"abc", TypeError),
    ([1, "a"], TypeError),  # mixed ids and keys
    (["a", 1], TypeError),
    ([-1], OverflowError),
    ([2**64], OverflowError),
    (5, TypeError),
])
def test_bad_batches_are_refused(bad, error):
    f = seen.BloomFilter(100, 0.01)
    with pytest.raises(error):
        f.add_many(bad)
    with pytest.raises(error):
        f.contains_many(bad)
    assert not f
