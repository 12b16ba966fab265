"""BloomFilter's set shapes beyond union: intersection (&, &=, intersection) and subset order
(<=, >=, issubset, issuperset). They work on bits, so each is approximate in one stated
direction: the common keys always stay, and a subset is never denied."""
from hypothesis import given, strategies as st
import pytest

import seen

ids = st.sets(st.integers(0, 2**64 - 1), max_size=300)


def filled(keys, seed=0):
    f = seen.BloomFilter(1000, 0.01, seed=seed)
    f.update(keys)
    return f


@given(ids, ids)
def test_the_common_keys_stay_in_the_intersection(a, b):
    both = filled(a) & filled(b)
    assert all(key in both for key in a & b)
    kept = filled(a)
    kept &= filled(b)
    assert kept == both


@given(ids, ids)
def test_a_subset_is_never_denied(a, b):
    small, large = filled(a), filled(a | b)
    assert small <= large and small.issubset(large)
    assert large >= small and large.issuperset(small)


def test_a_stranger_is_not_a_subset():
    assert not filled(range(1000, 1100)) <= filled(range(100))
    assert not filled(range(100)).issuperset(filled(range(1000, 1100)))


def test_intersection_and_union_take_many():
    a, b, c = filled(range(0, 60)), filled(range(20, 80)), filled(range(40, 100))
    common = a.intersection(b, c)
    assert all(key in common for key in range(40, 60))
    assert a.intersection() == a and a.union() == a
    assert a.union(b, c) == a | b | c
    assert len(a & b) >= 40 and len(a & b) <= len(a)


def test_the_operands_are_left_alone():
    a, b = filled(range(10)), filled(range(5, 15))
    before = a.to_bytes()
    a & b
    a <= b
    assert a.to_bytes() == before


def test_filters_of_other_shapes_are_refused():
    a = filled(range(10))
    with pytest.raises(seen.IncompatibleError, match="cannot intersect: seed"):
        a &= filled(range(10), seed=1)
    with pytest.raises(seen.IncompatibleError, match="cannot compare: block count"):
        a <= seen.BloomFilter(100_000, 0.01)
    assert a.__and__(5) is NotImplemented and a.__le__(set()) is NotImplemented
