"""CountingFilter: a set that forgets. Adds, removes and queries of every key type, single and
in batches; the remove rule (NotFoundError for a certainly absent key, added twice means
removed twice); saturation; no false negatives against an exact multiset; bytes, files,
views, pickle, roles and corrupt input."""
import gc
import pickle
import threading
from array import array
from collections import Counter

import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

import seen
from refusals import (MUTATIONS, assert_each_raises, assert_every_load_refuses,
                      assert_opens_read_only_for_queries)
from sample_keys import EVERY_KEY_TYPE, with_sample_keys

@pytest.fixture
def filled():
    return with_sample_keys(seen.CountingFilter(10_000, 0.01, seed=77))


def same_answers(a, b):
    ids = numpy.arange(20_000, dtype=numpy.uint64)
    keys = [f"key{i}" for i in range(10_000)]
    return ((a.contains_many(ids) == b.contains_many(ids)).all()
            and (a.contains_many(keys) == b.contains_many(keys)).all())


# --- single keys and the remove rule -------------------------------------------------------


def test_every_key_type_goes_in_and_out():
    f = seen.CountingFilter(1000, 0.01)
    for key in EVERY_KEY_TYPE:
        f.add(key)
    assert all(key in f for key in EVERY_KEY_TYPE)
    assert len(f) == len(EVERY_KEY_TYPE)
    for key in EVERY_KEY_TYPE:
        f.remove(key)
    assert not any(key in f for key in EVERY_KEY_TYPE)
    assert len(f) == 0 and not f


def test_str_is_its_utf8_bytes_and_int_its_8_little_endian_bytes():
    f = seen.CountingFilter(1000, 0.01, seed=3)
    f.add("é")
    f.add(0x0102030405060708)
    f.remove("é".encode())
    f.remove((0x0102030405060708).to_bytes(8, "little"))
    assert not f


def test_removing_a_certainly_absent_key_raises_not_found_and_changes_nothing():
    f = seen.CountingFilter(1000, 0.01, seed=1)
    f.update(range(100))
    before = f.to_bytes()
    with pytest.raises(seen.NotFoundError) as raised:
        f.remove("never added")
    assert isinstance(raised.value, KeyError) and isinstance(raised.value, seen.SeenError)
    assert raised.value.status_name == "SEEN_ERR_NOT_FOUND"
    assert "certainly absent" in str(raised.value) and not str(raised.value).startswith("'")
    assert f.discard("never added") is False
    assert f.to_bytes() == before


def test_a_key_added_twice_is_removed_twice():
    f = seen.CountingFilter(1000, 0.01)
    f.add("twice")
    f.add_many(["twice"])
    f.remove("twice")
    assert "twice" in f
    assert f.discard("twice") is True
    assert "twice" not in f
    with pytest.raises(seen.NotFoundError):
        f.remove("twice")


def test_the_same_answers_as_the_bloom_filter_of_the_same_parameters():
    counting = seen.CountingFilter(20_000, 0.01, seed=9)
    bloom = seen.BloomFilter(20_000, 0.01, seed=9)
    ids = numpy.arange(20_000, dtype=numpy.uint64) * 7919
    counting.add_many(ids)
    bloom.add_many(ids)
    queries = numpy.arange(200_000, dtype=numpy.uint64)
    assert (counting.contains_many(queries) == bloom.contains_many(queries)).all()
    assert (counting.k, counting.blocks * 64) == (bloom.k, bloom.size_bytes)
    assert counting.size_bytes == 5 * bloom.size_bytes


@pytest.mark.parametrize("key", [None, b"k" * 16])
def test_single_in_answers_as_the_batch_after_adds_and_removes(key):
    # `in` of an int, str or bytes is the C base's probe; of other types, the cffi path.
    f = seen.CountingFilter(20_000, 0.01, seed=0 if key else 3, key=key)
    ids = list(range(0, 40_000, 2))
    words = [f"w{i}" for i in range(20_000)]
    f.add_many(ids[:10_000])
    f.add_many(words[:10_000])
    f.remove_many(ids[:5_000])
    f.remove_many(words[:5_000])
    for keys in (ids, words, [w.encode() for w in words]):
        assert [k in f for k in keys] == list(f.contains_many(keys))
    assert [bytearray(w.encode()) in f for w in words] == list(f.contains_many(words))
    assert [numpy.uint64(i) in f for i in ids] == list(f.contains_many(ids))
    assert sum(i in f for i in ids[:5_000]) < 250  # removed: false positives only


def test_removed_keys_are_forgotten_and_the_rest_kept():
    f = seen.CountingFilter(10_000, 0.01, seed=4)
    ids = numpy.arange(10_000, dtype=numpy.uint64)
    f.add_many(ids)
    even, odd = ids[::2].copy(), ids[1::2].copy()
    assert f.remove_many(even).all()
    assert f.contains_many(odd).all()
    assert f.contains_many(even).mean() < 0.01  # the false-positive rate at half load
    assert len(f) == 5_000


@pytest.mark.parametrize("key, error", [(-1, OverflowError), (2**64, OverflowError),
                                        (1.5, TypeError), (None, TypeError), ([1], TypeError)])
def test_keys_outside_str_bytes_u64_are_refused(key, error):
    f = seen.CountingFilter(1000, 0.01)
    for call in (f.add, f.remove, f.discard, f.__contains__):
        with pytest.raises(error):
            call(key)


# --- saturation ------------------------------------------------------------------------


def test_counters_saturate_at_15_and_then_never_forget():
    f = seen.CountingFilter(1000, 0.01, seed=5)
    assert f.counter_bits == 4
    for _ in range(40):
        f.add("hot")
    assert f.saturated == f.k  # its own k counters, stuck at 15, never wrapped to 0
    assert len(f) == 15  # what the counters still say
    for _ in range(100):
        f.remove("hot")  # all its counters stay at 15: every remove is accepted
    assert "hot" in f and f.saturated == f.k


def test_saturated_counters_never_make_a_false_negative_for_their_neighbours():
    f = seen.CountingFilter(50, 0.5, seed=6)  # one block: every key shares its counters
    assert f.blocks == 1
    ids = numpy.arange(200, dtype=numpy.uint64)
    for _ in range(20):
        f.add_many(ids)
    assert f.saturated > 0
    f.remove_many(ids[:100])
    for _ in range(19):
        f.remove_many(ids[100:])
    assert f.contains_many(ids[100:]).all()  # added 20 times, removed 19


# --- against an exact multiset ---------------------------------------------------------------

keys = st.one_of(st.integers(0, 2**64 - 1), st.binary(max_size=12), st.text(max_size=8))


def norm(key):
    return key.encode() if isinstance(key, str) else key


def by_type(batch):
    """A mixed batch as its ids and its byte keys: a batch call takes one or the other."""
    ids = [k for k in batch if isinstance(k, int)]
    return [part for part in (ids, [k for k in batch if not isinstance(k, int)]) if part]


@given(st.lists(st.tuples(st.sampled_from(["add", "remove", "add_many", "remove_many"]),
                          st.lists(keys, min_size=1, max_size=6)), max_size=40))
def test_no_false_negatives_against_an_exact_multiset(script):
    f = seen.CountingFilter(500, 0.01, seed=11)
    exact: Counter = Counter()
    for op, batch in script:
        if op == "add":
            for key in batch:
                f.add(key)
                exact[norm(key)] += 1
        elif op == "add_many":
            for part in by_type(batch):
                f.add_many(part)
                exact.update(map(norm, part))
        elif op == "remove":
            for key in batch:
                if exact[norm(key)] > 0:  # the remove rule: only keys that are in
                    f.remove(key)
                    exact[norm(key)] -= 1
        else:
            for part in by_type(batch):
                chosen, taken = [], Counter()
                for key in part:  # each key at most as often as it is in
                    if taken[norm(key)] < exact[norm(key)]:
                        chosen.append(key)
                        taken[norm(key)] += 1
                if chosen:
                    assert f.remove_many(chosen).all()
                    exact.subtract(taken)
        assert all(key in f for key, n in exact.items() if n > 0)
    assert len(f) == sum(exact.values())  # exact: nothing saturates at these counts


# --- batches -------------------------------------------------------------------------------


@pytest.mark.parametrize("make", [
    lambda ids: numpy.array(ids, dtype=numpy.uint64),
    lambda ids: array("Q", ids),
    lambda ids: list(ids),
    lambda ids: tuple(ids),
    lambda ids: iter(ids),
    lambda ids: [str(i) for i in ids],
    lambda ids: [str(i).encode() for i in ids],
], ids=["numpy", "array", "list", "tuple", "iterator", "str", "bytes"])
def test_batches_of_every_form(make):
    f = seen.CountingFilter(10_000, 0.01, seed=8)
    ids = list(range(1000, 3000))
    f.add_many(make(ids))
    assert len(f) == 2000
    found = f.contains_many(make(ids))
    assert isinstance(found, numpy.ndarray) and found.dtype == bool and found.all()
    removed = f.remove_many(make(ids[:1000]))
    assert isinstance(removed, numpy.ndarray) and removed.all()
    assert f.contains_many(make(ids[1000:])).all()
    assert len(f) == 1000


def test_remove_many_flags_the_certainly_absent_keys_and_removes_the_rest():
    f = seen.CountingFilter(1000, 0.001, seed=2)
    f.update(["a", "b", "c"])
    before_c = f.contains_many(["c"])
    flags = f.remove_many(["a", "never", "b", "a"])  # "a" twice: the second is absent by then
    assert list(flags) == [True, False, True, False]
    assert list(f.contains_many(["a", "b", "c"])) == [False, False, True]
    assert before_c.all()


def test_a_numpy_view_of_ids_is_used_in_place_and_bad_buffers_refused():
    f = seen.CountingFilter(1000, 0.01)
    ids = numpy.arange(100, dtype=numpy.uint64)
    f.add_many(ids[10:20])
    assert list(f.contains_many(ids[5:25])) == [False] * 5 + [True] * 10 + [False] * 5
    with pytest.raises(TypeError, match="uint64"):
        f.add_many(numpy.arange(10, dtype=numpy.int32))
    with pytest.raises(TypeError, match="contiguous"):
        f.remove_many(ids[::2])
    with pytest.raises(TypeError, match="wrap"):
        f.add_many("abc")


def test_empty_batches_are_no_ops():
    f = seen.CountingFilter(100, 0.01)
    f.add_many([])
    assert len(f.remove_many(numpy.zeros(0, dtype=numpy.uint64))) == 0
    assert len(f.contains_many([])) == 0
    assert not f


def test_update_mixes_ids_and_keys_and_clear_empties():
    f = seen.CountingFilter(1000, 0.01)
    f.update(["a", 1, b"x", numpy.uint64(5)], {10, 11})
    assert all(k in f for k in ["a", 1, b"x", 5, 10, 11])
    assert len(f) == 6 and f.fill_ratio > 0
    f.clear()
    assert not f and len(f) == 0 and 1 not in f


def test_parameters_and_estimates():
    f = seen.CountingFilter(10_000, 0.02, seed=2**64 - 1)
    assert (f.expected_items, f.fpr, f.seed, f.read_only) == (10_000, 0.02, 2**64 - 1, False)
    assert f.size_bytes == f.blocks * 320 and f.expected_fpr == 0 and f.fill_ratio == 0
    f.add_many(numpy.arange(10_000, dtype=numpy.uint64))
    assert 0.5 * 0.02 < f.expected_fpr < 1.5 * 0.02
    assert repr(f).startswith("CountingFilter(expected_items=10000, fpr=0.02")


@pytest.mark.parametrize("fpr", [0.0, 1.0, -0.5, float("nan")])
def test_an_fpr_outside_0_1_is_an_invalid_argument(fpr):
    with pytest.raises(seen.InvalidArgumentError, match="fpr"):
        seen.CountingFilter(1000, fpr)


# --- bytes, files and roles ---------------------------------------------------------------


def test_bytes_round_trip(filled):
    data = filled.to_bytes()
    copy = seen.CountingFilter.from_bytes(bytearray(data))
    assert copy.to_bytes() == data and same_answers(filled, copy)
    copy.remove("key1")  # the copy is writable and independent
    assert "key1" in filled and copy.to_bytes() != data
    assert filled.copy().to_bytes() == data


def test_pickle_round_trip(filled):
    copy = pickle.loads(pickle.dumps(filled))
    assert copy.to_bytes() == filled.to_bytes()
    assert len(copy) == len(filled) == 10_000


def test_save_and_open_read_only_is_the_query_role(filled, tmp_path):
    assert_opens_read_only_for_queries(filled, tmp_path / "f.seen", same_answers, lambda mapped: [
        lambda: mapped.add("new"), lambda: mapped.add_many([1, 2]),
        lambda: mapped.remove("key1"), lambda: mapped.discard(1),
        lambda: mapped.remove_many([1, 2]), lambda: mapped.remove("absent"),
        lambda: mapped.update(["x"]), mapped.clear])


def test_open_read_write_writes_back_on_close(filled, tmp_path):
    path = tmp_path / "f.seen"
    filled.save(path)
    with seen.CountingFilter.open(str(path), read_only=False) as mapped:
        mapped.remove("key1")
        mapped.add("added through the mapping")
        mapped.sync()
    reopened = seen.CountingFilter.open(path)  # verifies the resealed checksums
    assert "added through the mapping" in reopened and "key1" not in reopened
    assert len(reopened) == len(filled)


def test_view_reads_the_buffer_in_place_and_keeps_it_alive(filled):
    view = seen.CountingFilter.view(bytearray(filled.to_bytes()))
    gc.collect()
    assert view.read_only and same_answers(filled, view)
    with pytest.raises(seen.ReadOnlyError):
        view.remove(1)


def test_open_of_a_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(seen.SeenIOError, match="missing.seen"):
        seen.CountingFilter.open(tmp_path / "missing.seen")


def test_a_path_with_a_nul_is_refused_not_truncated(filled, tmp_path):
    with pytest.raises(ValueError, match="null"):
        filled.save(str(tmp_path / "a\0b"))
    with pytest.raises(ValueError, match="null"):
        seen.CountingFilter.open(bytes(tmp_path / "a") + b"\0b")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("mutate, error", MUTATIONS)
def test_corrupt_bytes_raise_their_own_error(filled, mutate, error, tmp_path):
    assert_every_load_refuses(mutate(filled.to_bytes()), error, tmp_path, seen.CountingFilter)


def test_other_kinds_are_refused_both_ways():
    bloom = seen.BloomFilter(1000, 0.01)
    counting = seen.CountingFilter(1000, 0.01)
    with pytest.raises(seen.WrongKindError):
        seen.CountingFilter.from_bytes(bloom.to_bytes())
    with pytest.raises(seen.WrongKindError):
        seen.BloomFilter.from_bytes(counting.to_bytes())
    with pytest.raises(seen.WrongKindError):
        seen.ScalableFilter.from_bytes(counting.to_bytes())


def test_with_closes_and_a_closed_filter_refuses_every_call(filled):
    with filled as f:
        assert 1 in f
    assert repr(f) == "<closed CountingFilter>"
    f.close()
    for call in [lambda: 1 in f, lambda: f.add("x"), lambda: f.remove("x"),
                 lambda: f.add_many([1]), lambda: f.remove_many([1]),
                 lambda: f.contains_many(["x"]), lambda: len(f), lambda: f.k,
                 lambda: f.to_bytes(), lambda: f.save("never"), f.clear]:
        with pytest.raises(seen.InvalidArgumentError, match="NULL"):
            call()


# --- threads -------------------------------------------------------------------------------


def test_writers_take_turns_and_queries_run_beside_them():
    f = seen.CountingFilter(100_000, 0.01, seed=12)
    kept = numpy.arange(50_000, dtype=numpy.uint64)
    f.add_many(kept)
    churn = [numpy.arange(10**6 * (t + 1), 10**6 * (t + 1) + 20_000, dtype=numpy.uint64)
             for t in range(3)]
    misses = []

    def write(ids):
        for chunk in numpy.array_split(ids, 20):
            f.add_many(chunk)
            f.add(int(chunk[0]) + 2**63)
            assert f.remove_many(chunk).all()
            f.remove(int(chunk[0]) + 2**63)

    def query():
        for _ in range(20):
            misses.append(int((~f.contains_many(kept)).sum()))

    workers = [threading.Thread(target=write, args=(ids,)) for ids in churn]
    workers.append(threading.Thread(target=query))
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert misses == [0] * 20
    assert len(f) == 50_000
