"""SimHash: fingerprints equal the shared vectors, the index agrees with brute force, and
removes, clusters, round trips and bad input behave as documented."""
import pickle

import numpy
import pytest

import seen
from conftest import VECTORS


def shared_vectors():
    rows = []
    for line in (VECTORS / "simhash_texts.vec").read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            ngram, text, simhash, high, low = words
            rows.append((int(ngram), b"" if text == "-" else bytes.fromhex(text),
                         int(simhash, 16), int(high, 16), int(low, 16)))
    return rows


VECTOR_ROWS = shared_vectors()


def test_every_shared_vector():
    assert len(VECTOR_ROWS) >= 15
    for ngram, text, simhash, high, low in VECTOR_ROWS:
        fp = seen.fingerprint(text, ngram=ngram)
        assert (fp.simhash, fp.exact_int >> 64, fp.exact_int & (2**64 - 1)) == (simhash, high, low)
        assert fp.exact == high.to_bytes(8, "big") + low.to_bytes(8, "big")
        assert seen.simhash(text, ngram=ngram) == simhash
        try:
            as_str = text.decode()
        except UnicodeDecodeError:
            continue
        assert seen.simhash(as_str, ngram=ngram) == simhash


def test_batch_fingerprints_equal_single_ones():
    for ngram in sorted({row[0] for row in VECTOR_ROWS}):
        rows = [row for row in VECTOR_ROWS if row[0] == ngram]
        got = seen.simhash_many([row[1] for row in rows], ngram=ngram, exact=True)
        assert got.simhashes.tolist() == [row[2] for row in rows]
        assert got.exact.tolist() == [[row[3], row[4]] for row in rows]
        assert seen.simhash_many(iter([row[1] for row in rows]), ngram=ngram).tolist() == [
            row[2] for row in rows]
    assert len(seen.simhash_many([])) == 0
    with pytest.raises(TypeError):
        seen.simhash_many("one text")


def test_empty_invalid_and_nul_text_are_defined():
    empty = seen.fingerprint("")
    assert empty.simhash == 0 and empty.features == 0
    assert seen.fingerprint(b"...!!").simhash == 0  # only punctuation: no tokens
    assert seen.exact_fingerprint(b"...!!") == seen.exact_fingerprint("")
    # Invalid UTF-8 and NUL are separators, never errors.
    assert seen.simhash(b"hello\xffworld") == seen.simhash("hello world")
    assert seen.simhash(b"hello\x00world") == seen.simhash("hello world")
    assert seen.simhash("hello\udcffworld") == seen.simhash("hello world")  # lone surrogate
    with pytest.raises(TypeError):
        seen.simhash(12)  # type: ignore[arg-type]
    with pytest.raises(seen.InvalidArgumentError):
        seen.simhash("text", ngram=9)


def test_exact_fingerprint_ignores_case_width_and_punctuation():
    a = seen.exact_fingerprint("Hello, World!")
    assert a == seen.exact_fingerprint("ＨＥＬＬＯ，ｗｏｒｌｄ！") and len(a) == 16
    assert seen.exact_fingerprint("Hello, World!", as_int=True) == int.from_bytes(a, "big")
    assert a != seen.exact_fingerprint("Hello, Word!")


def test_features_hashes_and_strings():
    assert seen.simhash_features([]) == 0
    assert seen.simhash_features([(0xFFFF, 1.0)]) == 0xFFFF
    assert seen.simhash_features([0xF0, (0x0F, 2.0)]) == 0x0F
    # A text's words are its features: the same fingerprint by either path.
    assert seen.simhash_features(["hello", "world"]) == seen.simhash("Hello world")
    assert seen.simhash_features([(b"hello", 1.0), ("world", 1.0)]) == seen.simhash("hello world")
    assert seen.simhash_features(["a"], seed=1) != seen.simhash_features(["a"])
    with pytest.raises(seen.InvalidArgumentError):
        seen.simhash_features([("a", float("nan"))])
    with pytest.raises(TypeError):
        seen.simhash_features(["a", 1])
    with pytest.raises(OverflowError):
        seen.simhash_features([-1])


def test_features_under_a_key():
    key, other = bytes(range(16)), bytes(range(1, 17))
    words = ["apple", "banana", "cherry", "date"]
    keyed = seen.simhash_features(words, key=key)
    assert keyed == seen.simhash_features(words, key=key)
    assert keyed != seen.simhash_features(words, key=other)
    assert keyed != seen.simhash_features(words)
    with pytest.raises(seen.InvalidArgumentError, match="16 to 64 bytes"):
        seen.simhash_features(words, key=b"short")
    with pytest.raises(TypeError):
        seen.simhash_features([1, 2], key=key)


def test_idf_table_weighs_tokens():
    text = "common common common rare"
    plain = seen.simhash(text)
    assert seen.simhash(text, idf=seen.IdfTable({})) == plain
    rare_only = seen.simhash(text, idf=seen.IdfTable({"COMMON": 0.0}))
    assert rare_only == seen.simhash("rare")
    assert len(seen.IdfTable({"a": 1.0, b"b": 2.0})) == 2
    with pytest.raises(TypeError):
        seen.simhash(text, idf={"a": 1.0})  # type: ignore[arg-type]


def test_hamming():
    assert seen.hamming(0, 2**64 - 1) == 64
    assert seen.hamming(0b1011, 0b0001) == 2
    assert seen.hamming(numpy.uint64(5), 5) == 0
    with pytest.raises(OverflowError):
        seen.hamming(-1, 0)


def flip(rng, fps, bits):
    """Each fingerprint with `bits` distinct random bits flipped."""
    out = fps.copy()
    for row in range(len(out)):
        for b in rng.choice(64, bits, replace=False):
            out[row] ^= numpy.uint64(1) << numpy.uint64(b)
    return out


def brute_force(fps, ids, q, k):
    x = numpy.bitwise_xor(fps, numpy.uint64(q))
    distances = numpy.unpackbits(x.view(numpy.uint8).reshape(-1, 8), axis=1).sum(axis=1)
    hit = distances <= k
    return sorted(zip(distances[hit].tolist(), ids[hit].tolist()))


@pytest.mark.parametrize("k", [3, 5])
def test_index_agrees_with_brute_force(k):
    rng = numpy.random.default_rng(2026 + k)
    n = 20_000
    fps = rng.integers(0, 2**64, size=n, dtype=numpy.uint64)
    ids = rng.permutation(n).astype(numpy.uint64)
    index = seen.SimHashIndex(k=k)
    index.add_many(ids, fps)
    assert len(index) == n and index.k == k
    # Near copies at every distance up to k + 1, and random queries.
    picks = rng.choice(n, 300)
    queries = numpy.concatenate([flip(rng, fps[picks], d % (k + 2)) for d in range(k + 2)]
                                + [rng.integers(0, 2**64, size=200, dtype=numpy.uint64)])
    batch = index.query_many(queries)
    flags = index.any_many(queries)
    mismatches = 0
    for i, q in enumerate(queries.tolist()):
        expected = [(ident, d) for d, ident in brute_force(fps, ids, q, k)]
        got = index.query(q)
        mismatches += (got != expected) + (batch[i] != expected) + (bool(flags[i]) != bool(expected))
        mismatches += index.any(q) != bool(expected)
    assert mismatches == 0
    # A smaller k per query.
    q = int(queries[0])
    assert index.query(q, k=1) == [(ident, d) for d, ident in brute_force(fps, ids, q, 1)]
    with pytest.raises(seen.InvalidArgumentError):
        index.query(q, k=k + 1)


def test_many_matches_grow_the_buffers():
    index = seen.SimHashIndex()
    index.add_many(numpy.arange(500, dtype=numpy.uint64), numpy.full(500, 7, dtype=numpy.uint64))
    assert index.query(7) == [(i, 0) for i in range(500)]
    results = index.query_many([7, 6, 1 << 40])
    assert [len(r) for r in results] == [500, 500, 0]
    assert results.offsets.tolist() == [0, 500, 1000, 1000]
    assert results[-2][0] == (0, 1)


def test_duplicate_ids_remove_and_lengths():
    index = seen.SimHashIndex(k=3)
    index.add(1, 0b1111)
    index.add(1, 0b1111)  # a multiset: both pairs stay
    index.add(1, 1 << 50)
    index.add(2, 0b0111)
    assert len(index) == 4
    assert index.query(0b1111) == [(1, 0), (1, 0), (2, 1)]
    assert index.remove(1) == 3
    assert index.remove(1) == 0 and index.remove(99) == 0
    assert len(index) == 1 and index.query(0b1111) == [(2, 1)]
    assert index.remove_many(numpy.array([2, 3], dtype=numpy.uint64)) == 1
    assert len(index) == 0 and not index.any(0b1111) and index.query(0) == []
    with pytest.raises(seen.InvalidArgumentError):
        index.add_many([1, 2], [3])
    with pytest.raises(TypeError):
        index.add_many(numpy.array([1], dtype=numpy.int64), [3])
    with pytest.raises(OverflowError):
        index.add(-1, 0)


def test_clusters():
    index = seen.SimHashIndex(k=3)
    base = 0x0123456789ABCDEF
    index.add_many([10, 11, 12, 20, 21, 30], [base, base ^ 0b111, base ^ 0b111000, 1 << 63,
                                              (1 << 63) | 1, 0xFFFF0000])
    # 11 and 12 are each within 3 of 10 but 6 apart: 10 takes 11, the smaller id, and 12 stands
    # alone, so no group spans more than k.
    groups = index.clusters()
    assert sorted(sorted(g) for g in groups) == [[10, 11], [20, 21]]
    assert sorted(map(sorted, index.clusters(min_size=1))) == [[10, 11], [12], [20, 21], [30]]
    assert sorted(map(sorted, index.clusters(k=2))) == [[20, 21]]
    assert seen.SimHashIndex().clusters() == []


def test_index_bad_arguments():
    with pytest.raises(seen.InvalidArgumentError):
        seen.SimHashIndex(k=8)
    assert seen.SimHashIndex(k=0).k == 0


@pytest.fixture
def filled():
    rng = numpy.random.default_rng(7)
    index = seen.SimHashIndex(k=4)
    fps = rng.integers(0, 2**64, size=2000, dtype=numpy.uint64)
    index.add_many(numpy.arange(2000, dtype=numpy.uint64), fps)
    return index, fps


def test_round_trips(filled, tmp_path):
    index, fps = filled
    queries = fps[:50] ^ numpy.uint64(0b101)
    expected = list(index.query_many(queries))
    data = index.to_bytes()
    copy = seen.SimHashIndex.from_bytes(data)
    assert copy.k == 4 and len(copy) == 2000 and not copy.read_only
    assert list(copy.query_many(queries)) == expected and copy.to_bytes() == data
    copy.add(5000, 1)  # a copy is writable
    assert len(copy) == 2001
    view = seen.SimHashIndex.view(bytearray(data))
    assert view.read_only and list(view.query_many(queries)) == expected
    with pytest.raises(seen.ReadOnlyError):
        view.add(1, 1)
    again = pickle.loads(pickle.dumps(index))
    assert list(again.query_many(queries)) == expected
    path = tmp_path / "index.seen"
    index.save(path)
    assert path.read_bytes() == data
    with seen.SimHashIndex.open(path) as mapped:
        assert mapped.read_only and len(mapped) == 2000 and mapped.k == 4
        assert list(mapped.query_many(queries)) == expected
        assert mapped.clusters() == index.clusters()
        with pytest.raises(seen.ReadOnlyError):
            mapped.remove(1)
    with pytest.raises(seen.InvalidArgumentError):
        mapped.query(1)
    mapped.close()  # twice is harmless
    with pytest.raises(seen.SeenIOError):
        seen.SimHashIndex.open(tmp_path / "missing.seen")


def test_corrupt_bytes_are_refused(filled):
    data = filled[0].to_bytes()
    with pytest.raises(seen.TruncatedError):
        seen.SimHashIndex.from_bytes(data[:100])
    with pytest.raises(seen.BadMagicError):
        seen.SimHashIndex.from_bytes(b"x" * len(data))
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 0xFF
    with pytest.raises(seen.FormatError):
        seen.SimHashIndex.from_bytes(damaged)
    with pytest.raises(seen.WrongKindError):
        seen.SimHashIndex.from_bytes(seen.BloomFilter(100, 0.01).to_bytes())
    with pytest.raises(seen.FormatError):
        seen.SimHashIndex.from_bytes(b"")
    # Unverified views of damaged bytes answer without reading outside the buffer.
    try:
        view = seen.SimHashIndex.view(damaged, verify=False)
    except seen.FormatError:
        return
    view.query(1)


def test_closed_index_raises():
    index = seen.SimHashIndex()
    with index:
        index.add(1, 1)
    assert repr(index) == "<closed SimHashIndex>"
    with pytest.raises(seen.InvalidArgumentError):
        index.add(1, 1)
    with pytest.raises(seen.InvalidArgumentError):
        len(index)


def test_threads_share_one_index():
    # The first queries race to build the staged tables; every thread gets the same answers.
    from concurrent.futures import ThreadPoolExecutor
    rng = numpy.random.default_rng(11)
    fps = rng.integers(0, 2**64, size=5000, dtype=numpy.uint64)
    index = seen.SimHashIndex()
    index.add_many(numpy.arange(5000, dtype=numpy.uint64), fps)
    queries = (fps[:400] ^ numpy.uint64(0b11)).tolist()

    def run(_):
        return [index.query(q) for q in queries], list(index.query_many(queries))
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(run, range(4)))
    expected = [[(i, 2)] for i in range(400)]
    assert all(single == expected and batch == expected for single, batch in results)
