"""Type hints of CountingFilter and ScalableFilter: mypy --strict accepts their modules and
correct use, and rejects wrong use. (test_typing checks the whole package; this checks these
two modules, so that it says something about them alone.)"""
from mypy_run import assert_accepted, assert_each_flagged

MODULES = ["seen/counting.py", "seen/scalable.py", "seen/errors.py"]

GOOD_USE = """
from array import array
import numpy
import seen

def forget(f: seen.CountingFilter, senders: list[str]) -> int:
    removed = f.remove_many(senders)
    return int(sum(removed))

with seen.CountingFilter(1000, 0.01, seed=1) as f:
    f.add("a"); f.add(b"b"); f.add(3); f.add(numpy.uint64(4))
    f.update(["c", 4])
    f.add_many(numpy.arange(10, dtype=numpy.uint64))
    f.add_many(array("Q", [1, 2]))
    flags = f.remove_many(numpy.arange(5, dtype=numpy.uint64))
    f.remove("a")
    gone: bool = f.discard(b"b")
    hit: bool = 3 in f
    found = f.contains_many(["c", "d"])
    n: int = len(f)
    size: int = f.size_bytes
    stuck: int = f.saturated
    rate: float = f.expected_fpr
    data: bytes = f.to_bytes()
    g: seen.CountingFilter = seen.CountingFilter.from_bytes(data).copy()
    v: seen.CountingFilter = seen.CountingFilter.view(bytearray(data), verify=False)
    f.save("c.seen")
    try:
        seen.CountingFilter.open("c.seen", read_only=True).remove("x")
    except seen.NotFoundError as e:
        status: int = e.status
    except KeyError:
        pass

with seen.ScalableFilter(100, 0.01, growth=4, tightening=0.8, seed=2) as s:
    s.add("a"); s.add(1)
    s.add_many(numpy.arange(1000, dtype=numpy.uint64))
    s.update([b"x", "y", 5])
    present: bool = "a" in s
    answers = s.contains_many(["a", "b"])
    count: int = len(s)
    subs: int = s.subfilters
    info: seen.ScalableInfo = s.info
    bound: float = info.fpr + s.expected_fpr + s.growth + s.tightening
    s.save("s.seen")
    r: seen.ScalableFilter = seen.ScalableFilter.open("s.seen", read_only=False, verify=False)
    t: seen.ScalableFilter = seen.ScalableFilter.from_bytes(r.to_bytes())
"""

WRONG_USE = {
    "counting_count": 'import seen\nseen.CountingFilter("many", 0.01)\n',
    "counting_key": "import seen\nseen.CountingFilter(10, 0.01).remove(1.5)\n",
    "discard": "import seen\nx: str = seen.CountingFilter(10, 0.01).discard(1)\n",
    "saturated": "import seen\nx: str = seen.CountingFilter(10, 0.01).saturated\n",
    "scalable_growth": 'import seen\nseen.ScalableFilter(10, 0.01, growth="fast")\n',
    "scalable_key": "import seen\nseen.ScalableFilter(10, 0.01).add([1])\n",
    "subfilters": "import seen\nx: str = seen.ScalableFilter(10, 0.01).subfilters\n",
    "info": "import seen\nx: int = seen.ScalableFilter(10, 0.01).info.fpr\n",
}


# Only these modules are checked: what they import is taken as it is.
OPTIONS = ("--follow-imports", "silent")


def test_mypy_accepts_the_modules_and_correct_use(tmp_path):
    assert_accepted(tmp_path, GOOD_USE, *MODULES, options=OPTIONS)


def test_mypy_rejects_wrong_use(tmp_path):
    assert_each_flagged(tmp_path, WRONG_USE, options=OPTIONS)
