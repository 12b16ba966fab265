"""BloomFilter as a set: single keys, update, merge, estimates and parameters."""
import numpy
import pytest

import seen
from sample_keys import EVERY_KEY_TYPE


def test_added_keys_of_every_type_are_found():
    f = seen.BloomFilter(1000, 0.01)
    for key in EVERY_KEY_TYPE:
        f.add(key)
    assert all(key in f for key in EVERY_KEY_TYPE)


def test_absent_keys_are_mostly_not_found():
    f = seen.BloomFilter(1000, 0.01)
    f.update(range(1000))
    found = sum(i in f for i in range(10**6, 10**6 + 1000))
    assert found < 50


def test_str_is_its_utf8_bytes_and_int_its_8_little_endian_bytes():
    f = seen.BloomFilter(1000, 0.01, seed=3)
    f.add("é")
    f.add(0x0102030405060708)
    assert "é".encode() in f
    assert (0x0102030405060708).to_bytes(8, "little") in f


def test_the_seed_changes_the_hash():
    a = seen.BloomFilter(1000, 0.01, seed=1)
    b = seen.BloomFilter(1000, 0.01, seed=2)
    a.update(range(500))
    b.update(range(500))
    assert a.to_bytes() != b.to_bytes()


@pytest.mark.parametrize("key, error", [(-1, OverflowError), (2**64, OverflowError),
                                        (1.5, TypeError), (None, TypeError), ([1], TypeError)])
def test_keys_outside_str_bytes_u64_are_refused(key, error):
    f = seen.BloomFilter(1000, 0.01)
    with pytest.raises(error):
        f.add(key)
    with pytest.raises(error):
        key in f


def test_update_takes_several_iterables_of_any_kind():
    f = seen.BloomFilter(1000, 0.01)
    f.update(["a", "b"], (b"c",), (i for i in range(3)), {10, 11}, numpy.arange(20, 23, dtype="u8"))
    assert all(k in f for k in ["a", "b", b"c", 0, 1, 2, 10, 11, 20, 21, 22])


def test_update_mixes_ids_and_keys_but_refuses_a_bare_string():
    f = seen.BloomFilter(1000, 0.01)
    f.update(["a", 1, b"x", numpy.uint64(5), bytearray(b"y")])
    assert all(k in f for k in ["a", 1, b"x", 5, b"y"])
    with pytest.raises(TypeError):
        f.update("abc")


def test_len_estimates_the_distinct_count():
    f = seen.BloomFilter(100_000, 0.01)
    assert len(f) == 0
    f.update(range(50_000))
    f.update(range(50_000))  # duplicates do not count
    assert abs(len(f) - 50_000) < 2_500


def test_bool_is_false_only_when_empty():
    f = seen.BloomFilter(100, 0.01)
    assert not f
    f.add("x")
    assert f
    f.clear()
    assert not f and "x" not in f


def test_in_place_merge_adds_the_other_filters_keys():
    a = seen.BloomFilter(1000, 0.01, seed=9)
    b = seen.BloomFilter(1000, 0.01, seed=9)
    a.add("a")
    b.add("b")
    a |= b
    assert "a" in a and "b" in a
    assert "a" not in b


def test_union_is_a_new_filter():
    a = seen.BloomFilter(1000, 0.01)
    b = seen.BloomFilter(1000, 0.01)
    a.add(1)
    b.add(2)
    union = a | b
    assert 1 in union and 2 in union
    assert 2 not in a and 1 not in b


def test_merging_different_filters_names_the_difference():
    a = seen.BloomFilter(1000, 0.01, seed=1)
    with pytest.raises(seen.IncompatibleError, match="seed"):
        a |= seen.BloomFilter(1000, 0.01, seed=2)
    with pytest.raises(seen.IncompatibleError, match="block count"):
        a | seen.BloomFilter(10**6, 0.01, seed=1)
    with pytest.raises(TypeError):
        a |= {1, 2}  # type: ignore[arg-type]


def test_copy_is_independent():
    a = seen.BloomFilter(1000, 0.01)
    b = a.copy()
    b.add("only in b")
    assert "only in b" not in a


def test_parameters():
    f = seen.BloomFilter(10_000, 0.001, seed=2**64 - 1)
    assert f.fpr == 0.001
    assert f.expected_items == 10_000
    assert f.seed == 2**64 - 1
    assert 1 <= f.k <= 8
    assert f.size_bytes % 64 == 0 and f.size_bytes >= 10_000 * 14 // 8
    assert not f.read_only
    assert "expected_items=10000" in repr(f)


class Subclass(seen.BloomFilter):
    """Without __slots__, so its instances have a __dict__ that could hide a parameter."""


@pytest.mark.parametrize("make", [seen.BloomFilter, Subclass])
def test_parameters_are_read_only(make):
    f = make(100, 0.01, seed=3)
    with pytest.raises(AttributeError, match="seed is read-only"):
        f.seed = 4
    assert f.seed == 3


def test_expected_fpr_grows_with_the_fill_to_about_the_target():
    f = seen.BloomFilter(20_000, 0.01)
    assert f.expected_fpr == 0.0
    f.update(range(10_000))
    half = f.expected_fpr
    f.update(range(10_000, 20_000))
    assert 0 < half < f.expected_fpr <= 0.011


@pytest.mark.parametrize("make", [lambda: seen.BloomFilter(10_000, 0.01),
                                  lambda: seen.ScalableFilter(1_000, 0.01)])
def test_add_tells_whether_the_key_was_there(make):
    """Test-and-add, against an exact set: a new key answers False unless it is a false
    positive (at most the filter's rate), a repeated key always answers True."""
    f = make()
    exact = set()
    false_positives = 0
    for i in range(5_000):
        key = f"user-{i % 4_000}"
        was = f.add(key)
        if key in exact:
            assert was is True
        else:
            false_positives += was
        exact.add(key)
    assert false_positives <= 0.02 * 4_000


def test_equal_filters_have_the_same_parameters_and_bits():
    a, b = seen.BloomFilter(1000, 0.01, seed=1), seen.BloomFilter(1000, 0.01, seed=1)
    a.update(range(100))
    b.update(reversed(range(100)))
    assert a == b and not a != b
    assert a.copy() == a
    b.add(1000)
    assert a != b
    assert seen.BloomFilter(1000, 0.01, seed=1) != seen.BloomFilter(1000, 0.01, seed=2)
    assert a != "a filter"
    with pytest.raises(TypeError):
        hash(a)
