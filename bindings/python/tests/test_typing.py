"""The package's type hints: mypy --strict accepts the package and correct use of it, and
rejects wrong use (so the hints say something)."""
from mypy_run import assert_accepted, assert_each_flagged

GOOD_USE = """
import numpy
import seen

def unseen(f: seen.BloomFilter, emails: list[str]) -> list[str]:
    found = f.contains_many(emails)
    return [e for e, hit in zip(emails, found) if not hit]

with seen.BloomFilter(1000, 0.01, seed=1) as f:
    f.add("a"); f.add(b"b"); f.add(3); f.add(numpy.uint64(4))
    f.update(["c", 4])
    f.add_many(numpy.arange(10, dtype=numpy.uint64))
    f |= seen.BloomFilter(1000, 0.01, seed=1)
    size: int = f.size_bytes
    rate: float = f.expected_fpr
    data: bytes = f.to_bytes()
    g: seen.BloomFilter = seen.BloomFilter.from_bytes(data) | f
    try:
        seen.BloomFilter.open("/missing", read_only=True)
    except seen.SeenError as e:
        status: int = e.status

w = seen.Window.last_items(500, fpr=0.01, seed=2, max_slack=0.25)
w.add(1); w.add("a"); w.add(b"b", now=5)
hit: bool = 1 in w and w.contains("a", now=7.5)
w.add_many(numpy.arange(10, dtype=numpy.uint64))
t = seen.Window.last_seconds(3600, expected_items=100, now=1000)
t.add_many(["x", "y"], now=1001)
info: seen.WindowInfo = t.info
layout: str = w.layout
budget = seen.Window.last_items_in_bytes(400, max_bytes=500)
copy: seen.Window = seen.Window.from_bytes(budget.to_bytes())

spec = seen.WindowSpec.last_seconds(30 * 86400, expected_items=1000)
with seen.ExposureStore(window=spec, idle_timeout=None, max_bytes=2**30) as store:
    store.mark(1, [1, 2], now=0)
    unseen = store.filter(1, numpy.arange(5, dtype=numpy.uint64), now=0)
    page = store.take(1, [3, 4, 5], 2, now=0)
    dropped: int = store.expire(now=10**6)
    users: int = store.stats.users

def persist(store: seen.ExposureStore) -> seen.ExposureStore:
    store.save("store.seen")
    return seen.ExposureStore.open("store.seen", read_only=True, verify=False)

fp: int = seen.simhash("近日，某市召开新闻发布会", ngram=2) ^ seen.simhash(b"bytes too")
exact: bytes = seen.exact_fingerprint("text")
exact_int: int = seen.exact_fingerprint("text", as_int=True)
whole: seen.Fingerprint = seen.fingerprint("text", idf=seen.IdfTable({"text": 2.0}))
many = seen.simhash_many(["a", b"b"], exact=True)
by_features: int = seen.simhash_features([("a", 1.0), "b"]) + seen.simhash_features([(1, 2.0)])
distance: int = seen.hamming(fp, numpy.uint64(3))
with seen.SimHashIndex(k=3) as index:
    index.add(1, fp)
    index.add_many(numpy.arange(3, dtype=numpy.uint64), [1, 2, 3])
    matches: list[tuple[int, int]] = index.query(fp, k=2)
    near: bool = index.any(fp)
    batch: seen.QueryResults = index.query_many([1, 2])
    groups: list[list[int]] = index.clusters()
    removed: int = index.remove(1) + len(index)
    copy_index = seen.SimHashIndex.from_bytes(index.to_bytes())
"""

WRONG_USE = {
    "count": 'import seen\nseen.BloomFilter("many", 0.01)\n',
    "key": "import seen\nseen.BloomFilter(10, 0.01).add(1.5)\n",
    "property": "import seen\nx: str = seen.BloomFilter(10, 0.01).k\n",
    "read_only": "import seen\nseen.Window.last_items(5).span = 6\n",
    "merge": "import seen\nf = seen.BloomFilter(10, 0.01)\nf |= {1}\n",
    "span": 'import seen\nseen.Window.last_items("many")\n',
    "now": "import seen\nseen.Window.last_items(5).add(1, now='noon')\n",
    "store_now": "import seen\ns = seen.ExposureStore(seen.WindowSpec.last_items(5))\ns.filter(1, [1])\n",
    "store_window": "import seen\nseen.ExposureStore(window=500)\n",
    "stats": "import seen\nx: str = seen.ExposureStore(seen.WindowSpec.last_items(5)).stats.users\n",
    "simhash": "import seen\nx: str = seen.simhash('text')\n",
    "simhash_text": "import seen\nseen.simhash(['a', 'list'])\n",
    "exact": "import seen\nx: int = seen.exact_fingerprint('text')\n",
    "index_query": "import seen\nx: list[int] = seen.SimHashIndex().query(1)\n",
    "index_k": "import seen\nseen.SimHashIndex(k='three')\n",
}


def test_mypy_accepts_the_package_and_correct_use(tmp_path):
    assert_accepted(tmp_path, GOOD_USE, "seen")


def test_mypy_rejects_wrong_use(tmp_path):
    assert_each_flagged(tmp_path, WRONG_USE)
