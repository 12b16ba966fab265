"""MinHash from Python: sketches estimate the Jaccard similarity of shingle sets, and
MinHashIndex finds near-duplicate short texts, Chinese and English, verified above its
threshold, with an inserted advert or header, and not unrelated texts."""
import random

import pytest

import seen

ZH = ("近日，某市召开新闻发布会，介绍了今年以来全市经济运行的总体情况。发布会上，相关负责人表示，"
      "全市地区生产总值同比增长百分之五点二，规模以上工业增加值增长百分之六点一，社会消费品零售总额"
      "增长百分之七点三，固定资产投资保持稳定增长，居民人均可支配收入稳步提高，就业形势总体稳定。")


def word_text(rng, n=120):
    return " ".join(f"w{rng.randrange(5000)}" for _ in range(n))


def test_the_estimate_follows_the_exact_jaccard():
    # Shingles of one token: the sets are the token sets; 300 of 900 tokens in common.
    a = " ".join(f"t{i}" for i in range(600))
    b = " ".join(f"t{i}" for i in range(300)) + " " + " ".join(f"u{i}" for i in range(300))
    estimates = [seen.similarity(seen.minhash(a, shingle=1, seed=s), seen.minhash(b, shingle=1, seed=s))
                 for s in range(20)]
    exact = 300 / 900
    # One standard deviation of the mean of 20 estimates of 128 bins: about 0.009.
    assert abs(sum(estimates) / 20 - exact) < 0.04


def test_chinese_edits_and_an_advert_stay_near():
    index = seen.MinHashIndex(threshold=0.8)
    index.add(1, ZH)
    edited = ZH.replace("五点二", "五点三").replace("稳步提高", "稳定提高")
    advert = ZH[:60] + "点击链接领取优惠券限时免费" + ZH[60:]
    for copy in (edited, advert):
        assert [i for i, s in index.query(copy)] == [1]


def test_english_near_duplicates_are_found_and_unrelated_ones_are_not():
    rng = random.Random(5)
    texts = [word_text(rng) for _ in range(500)]
    with seen.MinHashIndex(threshold=0.7) as index:
        for i, t in enumerate(texts):
            index.add(i, t)
        assert len(index) == 500 and index.bytes > 0
        found = 0
        for i in range(100):
            words = texts[i].split()
            for _ in range(5):
                words[rng.randrange(len(words))] = f"w{rng.randrange(5000)}"
            header = "please read this message from the sender before you reply to it thank you kindly"
            for copy in (" ".join(words), header + " " + texts[i]):
                matches = index.query(copy)
                assert all(s >= 0.7 for _, s in matches)
                assert all(m == i for m, _ in matches), "an unrelated text matched"
                found += bool(matches)
        assert found >= 190, f"{found} of 200 copies found"
        assert index.remove(0) and not index.remove(0)
        assert index.query(texts[0]) == []


def test_more_matches_than_the_query_buffers_hold_are_all_returned():
    # The C query has room for 64 matches, the general path for 16, before they ask again.
    text = "the same passage of plain words stored under many ids in one index"
    index = seen.MinHashIndex(threshold=0.7)
    for i in range(150):
        index.add(i, text)
    for query in (text, bytearray(text.encode())):  # the C query, then the general path
        matches = index.query(query)
        assert [i for i, _ in matches] == list(range(150))
        assert all(s == 1.0 for _, s in matches)


def test_the_c_query_answers_as_the_general_path():
    # str and bytes are queried in C (_minhash_query.c); bytearray, memoryview, str subclasses
    # and strs with lone surrogates take the general path through cffi.
    rng = random.Random(11)
    texts = [word_text(rng, 40) for _ in range(300)]
    index = seen.MinHashIndex(threshold=0.5)
    for i, t in enumerate(texts):
        index.add(i, t)

    class Str(str):
        pass

    for t in texts[:60]:
        words = t.split()
        words[rng.randrange(len(words))] = "Ünïcode中文"
        copy = " ".join(words)
        general = index.query(bytearray(copy.encode()))
        assert general, "an edited copy is found"
        assert index.query(copy) == index.query(copy.encode()) == index.query(Str(copy)) == general
        assert index.query(memoryview(copy.encode())) == general
        assert index.query(copy + "\ud800") == index.query(copy.encode() + b"\xed\xa0\x80")
    index.close()
    with pytest.raises(seen.InvalidArgumentError):
        index.query(texts[0])


def test_bad_options_are_refused():
    with pytest.raises(seen.InvalidArgumentError, match="bins"):
        seen.minhash("x", bins=100)
    with pytest.raises(seen.InvalidArgumentError, match="threshold"):
        seen.MinHashIndex(threshold=2)
    with pytest.raises(seen.InvalidArgumentError, match="16 to 64 bytes"):
        seen.MinHashIndex(key=b"short")


def test_saved_indexes_answer_as_the_original(tmp_path):
    rng = random.Random(3)
    texts = [" ".join(f"w{rng.randrange(2000)}" for _ in range(50)) for _ in range(300)]
    index = seen.MinHashIndex(threshold=0.7)
    for i, text in enumerate(texts):
        index.add(i, text)
    index.remove(5)
    index.add(6, texts[0])
    index.save(tmp_path / "m.seen")
    opened = seen.MinHashIndex.open(tmp_path / "m.seen")
    copied = seen.MinHashIndex.from_bytes(index.to_bytes())
    assert len(opened) == len(copied) == 299
    for text in texts:
        assert opened.query(text) == copied.query(text) == index.query(text)
    assert [i for i, _ in opened.query(texts[0])] == [0, 6]
    assert opened.query(texts[5]) == []
    opened.add(5, texts[5])
    assert [i for i, _ in opened.query(texts[5])] == [5]


@pytest.mark.parametrize("verify", [True, False])
def test_a_read_only_open_queries_the_file_in_place(tmp_path, verify):
    rng = random.Random(4)
    texts = [" ".join(f"w{rng.randrange(2000)}" for _ in range(50)) for _ in range(200)]
    index = seen.MinHashIndex(threshold=0.7)
    for i, text in enumerate(texts):
        index.add(i, text)
    index.save(tmp_path / "m.seen")
    mapped = seen.MinHashIndex.open(tmp_path / "m.seen", read_only=True, verify=verify)
    assert len(mapped) == 200
    for text in texts:
        assert mapped.query(text) == index.query(text)
    with pytest.raises(seen.ReadOnlyError):
        mapped.add(500, texts[0])
    with pytest.raises(seen.ReadOnlyError):
        mapped.remove(0)
    assert mapped.to_bytes() == index.to_bytes()


def test_saved_bytes_are_checked_and_keys_kept(tmp_path):
    key = bytes(range(16))
    index = seen.MinHashIndex(key=key)
    index.add(1, "a keyed text of a few words for the index")
    data = index.to_bytes()
    with pytest.raises(seen.IncompatibleError):
        seen.MinHashIndex.from_bytes(data)
    assert [i for i, _ in seen.MinHashIndex.from_bytes(data, key=key).query(
        "a keyed text of a few words for the index")] == [1]
    damaged = bytearray(data)
    damaged[-1] ^= 1
    with pytest.raises(seen.BadChecksumError):
        seen.MinHashIndex.from_bytes(damaged, key=key)
    with pytest.raises(seen.TruncatedError):
        seen.MinHashIndex.from_bytes(data[:100], key=key)
    with pytest.raises(seen.WrongKindError):
        seen.MinHashIndex.from_bytes(seen.SimHashIndex().to_bytes())
    with pytest.raises(seen.SeenIOError):
        seen.MinHashIndex.open(tmp_path / "missing.seen")
