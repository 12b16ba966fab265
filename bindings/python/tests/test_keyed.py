"""Keyed mode from Python: a keyed Bloom filter finds every key it holds, its bytes and file
open only with its key, it copies but does not pickle, and its rate on keys never added is
the target's; keyed windows and stores keep the same rules."""
import pickle

import pytest

import seen

KEY = bytes(range(16))
OTHER = bytes(range(1, 17))


@pytest.fixture
def keyed():
    f = seen.BloomFilter(20_000, 0.01, key=KEY)
    f.add_many(range(20_000))
    return f


def test_a_keyed_filter_finds_every_key_at_the_target_rate(keyed):
    assert keyed.keyed and keyed.seed == 0
    assert all(keyed.contains_many(range(20_000)))
    # 1% of 20,000 is 200 +- 14: 260 is four standard deviations.
    assert sum(keyed.contains_many(range(10**9, 10**9 + 20_000))) < 260


def test_its_bytes_open_only_with_its_key(keyed):
    data = keyed.to_bytes()
    assert KEY not in data
    with pytest.raises(seen.IncompatibleError, match="with a secret key"):
        seen.BloomFilter.from_bytes(data)
    with pytest.raises(seen.IncompatibleError, match="another secret key"):
        seen.BloomFilter.from_bytes(data, key=OTHER)
    assert seen.BloomFilter.from_bytes(data, key=KEY) == keyed


def test_its_file_opens_only_with_its_key(keyed, tmp_path):
    path = tmp_path / "keyed.seen"
    keyed.save(path)
    with pytest.raises(seen.IncompatibleError):
        seen.BloomFilter.open(path)
    with seen.BloomFilter.open(path, key=KEY) as f:
        assert f.keyed and 19_999 in f


def test_it_copies_but_does_not_pickle(keyed):
    copy = keyed.copy()
    assert copy.keyed and copy == keyed
    with pytest.raises(TypeError, match="keyed"):
        pickle.dumps(keyed)


def test_bad_keys_and_mixing_are_refused(keyed):
    with pytest.raises(seen.InvalidArgumentError, match="16 to 64 bytes"):
        seen.BloomFilter(10, 0.01, key=b"short")
    with pytest.raises(seen.InvalidArgumentError, match="no seed"):
        seen.BloomFilter(10, 0.01, seed=3, key=KEY)
    plain = seen.BloomFilter(20_000, 0.01)
    with pytest.raises(seen.IncompatibleError, match="keyed"):
        plain |= keyed


def test_keyed_windows_and_stores(tmp_path):
    """A keyed spec makes keyed windows and stores: their bytes and files open only with the
    key, a keyed window does not pickle, and the spec's repr does not show it."""
    spec = seen.WindowSpec("count", 500, key=KEY)
    assert str(KEY) not in repr(spec)
    w = seen.Window(spec)
    w.add_many([1, 2, 3])
    data = w.to_bytes()
    with pytest.raises(seen.IncompatibleError):
        seen.Window.from_bytes(data)
    assert all(seen.Window.from_bytes(data, key=KEY).contains_many([1, 2, 3]))
    with pytest.raises(TypeError, match="keyed"):
        pickle.dumps(w)
    with pytest.raises(TypeError, match="keyed"):
        pickle.dumps(seen.Window.from_bytes(data, key=KEY))
    store = seen.ExposureStore(window=spec)
    store.mark(7, [11, 22], now=0)
    path = tmp_path / "keyed.store"
    store.save(path)
    with pytest.raises(seen.IncompatibleError):
        seen.ExposureStore.open(path)
    with seen.ExposureStore.open(path, key=KEY) as back:
        assert not any(back.filter(7, [11, 22], now=0))


@pytest.mark.parametrize("make", [
    lambda key: seen.CountingFilter(5_000, 0.01, key=key),
    lambda key: seen.ScalableFilter(500, 0.01, key=key),
], ids=["counting", "scalable"])
def test_keyed_counting_and_scalable_filters(make, tmp_path):
    f = make(KEY)
    f.add_many(range(5_000))
    assert all(f.contains_many(range(5_000)))
    kind = type(f)
    data = f.to_bytes()
    assert KEY not in data
    with pytest.raises(seen.IncompatibleError, match="with a secret key"):
        kind.from_bytes(data)
    with pytest.raises(seen.IncompatibleError, match="another secret key"):
        kind.from_bytes(data, key=OTHER)
    assert all(kind.from_bytes(data, key=KEY).contains_many(range(5_000)))
    path = tmp_path / "keyed.seen"
    f.save(path)
    with pytest.raises(seen.IncompatibleError):
        kind.open(path)
    assert all(kind.open(path, key=KEY).contains_many(range(5_000)))
    with pytest.raises(TypeError, match="keyed"):
        pickle.dumps(f)
    with pytest.raises(seen.InvalidArgumentError, match="16 to 64 bytes"):
        make(b"short")


@pytest.mark.parametrize("make", [
    lambda: seen.CountingFilter(2_000, 0.01, key=KEY),
    lambda: seen.ScalableFilter(2_000, 0.01, key=KEY),
    lambda: seen.Window(seen.WindowSpec("count", 500, key=KEY)),
], ids=["counting", "scalable", "window"])
def test_a_keyed_copy_keeps_its_key(make):
    """copy() goes through the bytes, which do not hold the key: the object keeps it, so the
    copy is keyed alike, holds the same items, and its own bytes open only with the key."""
    original = make()
    original.add_many(range(300))
    copy = original.copy()
    assert copy.keyed
    assert all(copy.contains_many(range(300)))
    with pytest.raises(seen.IncompatibleError):
        type(original).from_bytes(copy.to_bytes())
    assert all(type(original).from_bytes(copy.to_bytes(), key=KEY).contains_many(range(300)))


def test_unkeyed_kinds_say_so():
    assert not seen.CountingFilter(10, 0.01).keyed
    assert not seen.ScalableFilter(10, 0.01).keyed
    assert not seen.Window(seen.WindowSpec("count", 10)).keyed
