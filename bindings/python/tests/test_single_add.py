"""BloomFilter.add through the C base (_probe.c's _add_one): the same bits and answers as the
batch path through cffi for every key type, keyed filters included, and the same errors."""
import numpy
import pytest

import seen

KEY = bytes(range(16))
KEYS = [0, 1, 2**64 - 1, "", "é", "user@example.com", b"", b"\x00bytes", True,
        numpy.uint64(7), bytearray(b"buffer"), memoryview(b"view")]


def test_add_is_the_c_base_method_without_a_python_frame():
    assert type(seen.BloomFilter.__dict__["add"]).__name__ == "method_descriptor"


@pytest.mark.parametrize("key", [None, KEY])
def test_single_adds_set_the_bits_a_batch_sets(key):
    single, batch = seen.BloomFilter(1000, 0.01, key=key), seen.BloomFilter(1000, 0.01, key=key)
    for k in KEYS:
        single.add(k)
    batch.update(KEYS)
    assert single.to_bytes() == batch.to_bytes()
    assert all(k in single for k in KEYS)


@pytest.mark.parametrize("key", [None, KEY])
def test_add_answers_whether_the_key_was_in_before(key):
    f = seen.BloomFilter(500, 0.05, key=key)
    keys = [i for i in range(1500)] + [f"s{i}" for i in range(1500)] + [b"b%d" % i for i in range(1500)]
    for k in keys:
        before = k in f
        assert f.add(k) is before
        assert f.add(k) is True


def test_add_to_a_read_only_filter_raises_with_the_library_message():
    f = seen.BloomFilter(1000, 0.01)
    f.add(1)
    view = seen.BloomFilter.view(f.to_bytes())
    for k in KEYS:
        with pytest.raises(seen.ReadOnlyError, match="read-only"):
            view.add(k)
    assert view.to_bytes() == f.to_bytes()


def test_add_to_a_closed_filter_raises():
    f = seen.BloomFilter(1000, 0.01)
    f.close()
    for k in (1, "a", b"a"):
        with pytest.raises(seen.InvalidArgumentError):
            f.add(k)


@pytest.mark.parametrize("key, error", [(-1, OverflowError), (2**64, OverflowError),
                                        (1.5, TypeError), (None, TypeError)])
def test_add_refuses_what_is_not_a_key(key, error):
    f = seen.BloomFilter(1000, 0.01)
    with pytest.raises(error):
        f.add(key)
    assert f.to_bytes() == seen.BloomFilter(1000, 0.01).to_bytes()
