"""Property tests against a Python set: whatever went in is always found (no false
negatives), through every path in and out."""
from hypothesis import given
from hypothesis import strategies as st

import seen

ids = st.integers(min_value=0, max_value=2**64 - 1)
keys = st.one_of(ids, st.text(), st.binary())
seeds = ids


@given(st.lists(keys), seeds)
def test_single_adds_are_always_found(added, seed):
    f = seen.BloomFilter(max(len(added), 1), 0.05, seed=seed)
    for key in added:
        f.add(key)
    assert all(key in f for key in set(added))


@given(st.lists(ids), st.lists(st.one_of(st.text(), st.binary())), st.lists(ids), seeds)
def test_batches_agree_with_single_keys(added_ids, added_keys, queries, seed):
    f = seen.BloomFilter(100, 0.05, seed=seed)
    f.add_many(added_ids)
    f.add_many(added_keys)
    assert f.contains_many(added_ids).all()
    assert f.contains_many(added_keys).all()
    assert all(key in f for key in added_ids + added_keys)
    assert list(f.contains_many(queries)) == [q in f for q in queries]


@given(st.lists(keys), st.lists(keys), seeds)
def test_a_union_finds_both_sets(left, right, seed):
    a = seen.BloomFilter(200, 0.01, seed=seed)
    b = seen.BloomFilter(200, 0.01, seed=seed)
    a.update(left)
    b.update(right)
    union = a | b
    a |= b
    assert all(key in union and key in a for key in set(left) | set(right))


@given(st.lists(keys, min_size=1), st.lists(keys))
def test_serialized_forms_give_the_same_answers(added, queries):
    f = seen.BloomFilter(len(added), 0.1)
    for key in added:
        f.add(key)
    data = f.to_bytes()
    for copy in (seen.BloomFilter.from_bytes(data), seen.BloomFilter.view(data)):
        assert all(key in copy for key in added)
        assert [q in copy for q in queries] == [q in f for q in queries]


@given(st.lists(st.one_of(st.text(), st.text(alphabet="abc@.0123456789"))), seeds)
def test_str_batches_pack_like_single_keys(words, seed):
    # All-ASCII batches take a one-encode fast path; any non-ASCII key takes the general one.
    batch = seen.BloomFilter(100, 0.05, seed=seed)
    single = seen.BloomFilter(100, 0.05, seed=seed)
    batch.add_many(words)
    for word in words:
        single.add(word)
    assert batch.to_bytes() == single.to_bytes()
