"""Bytes, files, views, pickle and closing: every way in and out keeps the same answers."""
import gc
import pickle
from pathlib import Path

import pytest

import seen
from refusals import assert_each_raises
from sample_keys import with_sample_keys


@pytest.fixture
def filled():
    return with_sample_keys(seen.BloomFilter(10_000, 0.01, seed=77))


def same_answers(a, b):
    queries = list(range(10_000))
    return (list(a.contains_many(queries)) == list(b.contains_many(queries))
            and all(("key%d" % i in a) == ("key%d" % i in b) for i in range(10_000)))


def test_bytes_round_trip(filled):
    data = filled.to_bytes()
    copy = seen.BloomFilter.from_bytes(data)
    assert copy.to_bytes() == data
    assert copy.seed == 77 and not copy.read_only
    assert same_answers(filled, copy)
    assert seen.BloomFilter.from_bytes(bytearray(data)).to_bytes() == data


def test_save_writes_the_same_bytes(filled, tmp_path):
    path = tmp_path / "f.seen"
    filled.save(path)
    assert path.read_bytes() == filled.to_bytes()
    filled.save(str(path))  # str paths too, replacing the file
    assert path.read_bytes() == filled.to_bytes()


def test_open_read_only_is_the_query_role(filled, tmp_path):
    path = tmp_path / "f.seen"
    filled.save(path)
    with seen.BloomFilter.open(path) as mapped:
        assert mapped.read_only
        assert same_answers(filled, mapped)
        with pytest.raises(seen.ReadOnlyError):
            mapped.add("new")
        with pytest.raises(seen.ReadOnlyError):
            mapped.add_many([1, 2])
        with pytest.raises(seen.ReadOnlyError):
            mapped |= filled


def test_open_read_write_writes_back_on_close(filled, tmp_path):
    path = tmp_path / "f.seen"
    filled.save(path)
    with seen.BloomFilter.open(path, read_only=False) as mapped:
        mapped.add("added through the mapping")
    reopened = seen.BloomFilter.open(path)  # verifies the resealed checksum
    assert "added through the mapping" in reopened
    assert same_answers(filled, reopened)


def test_open_without_verify_still_checks_the_header(tmp_path):
    path = tmp_path / "junk"
    path.write_bytes(b"not a filter" * 100)
    with pytest.raises(seen.BadMagicError):
        seen.BloomFilter.open(path, verify=False)


def test_open_of_a_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(seen.SeenIOError) as raised:
        seen.BloomFilter.open(tmp_path / "missing.seen")
    assert isinstance(raised.value, OSError)
    assert "missing.seen" in str(raised.value)


def test_view_reads_the_buffer_in_place_and_keeps_it_alive(filled):
    view = seen.BloomFilter.view(bytearray(filled.to_bytes()))
    gc.collect()  # the only reference to the bytearray is now the view's
    assert view.read_only
    assert same_answers(filled, view)
    with pytest.raises(seen.ReadOnlyError):
        view.add(1)


def test_view_shares_memory_with_its_buffer(filled):
    data = bytearray(filled.to_bytes())
    view = seen.BloomFilter.view(data, verify=False)
    assert 123 in view
    data[-filled.size_bytes:] = bytes(filled.size_bytes)  # zero the payload under the view
    assert 123 not in view and not view


def test_pickle_round_trip(filled):
    copy = pickle.loads(pickle.dumps(filled))
    assert copy.to_bytes() == filled.to_bytes()


@pytest.mark.parametrize("make", [
    lambda: seen.BloomFilter(100, 0.01),
    lambda: seen.SimHashIndex(),
    lambda: seen.MinHashIndex(),
    lambda: seen.ExposureStore(seen.WindowSpec.last_items(10)),
], ids=["bloom", "simhash", "minhash", "store"])
def test_every_kind_refuses_a_path_with_a_nul_rather_than_truncate_it(make, tmp_path):
    with pytest.raises(ValueError, match="null"):
        make().save(str(tmp_path / "a\0b"))
    assert list(tmp_path.iterdir()) == []


def test_with_closes_and_a_closed_filter_refuses_every_call(filled):
    with filled as f:
        assert 1 in f
    assert repr(f) == "<closed BloomFilter>"
    f.close()  # a second close is harmless
    assert_each_raises(seen.InvalidArgumentError, [
        lambda: 1 in f, lambda: "x" in f, lambda: b"x" in f, lambda: f.add("x"),
        lambda: f.add_many([1]), lambda: f.contains_many(["x"]), lambda: len(f), lambda: f.k,
        lambda: f.to_bytes(), lambda: f.save(Path("never")), lambda: f.clear()], match="NULL")


def _rss_anon_bytes():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) * 1024
    pytest.skip("no RssAnon in /proc/self/status")


def test_open_maps_the_file_instead_of_copying_it(tmp_path):
    path = tmp_path / "big.seen"
    big = seen.BloomFilter(25_000_000, 0.01)
    assert big.size_bytes > 24 * 2**20
    big.save(path)
    big.close()
    before = _rss_anon_bytes()
    with seen.BloomFilter.open(path) as mapped:  # reads every page for the checksum
        assert 1 not in mapped
        grown = _rss_anon_bytes() - before
    assert grown < 4 * 2**20
