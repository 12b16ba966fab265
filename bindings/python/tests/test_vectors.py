"""The shared vectors of tests/vectors/: building each .vec gives its .seen file byte for
byte, and the .seen file (written by the C++ side) gives every expected answer. Bloom filter
vectors are bloom_*.vec, exposure window vectors window_*.vec (other kinds are other
bindings' business)."""
import pytest

import seen
from conftest import VECTORS
from vector_file import Vector, parse, read

BLOOM_FILES = sorted(VECTORS.glob("bloom_*.vec"))
WINDOW_FILES = sorted(VECTORS.glob("window_*.vec"))


def build(v: Vector) -> seen.BloomFilter:
    f = seen.BloomFilter(v.expected_items, v.fpr, seed=v.seed)
    for key in v.adds:
        f.add(key)
    return f


def test_the_vectors_are_there():
    assert BLOOM_FILES, f"no bloom_*.vec in {VECTORS}"
    assert {p.stem for p in WINDOW_FILES} >= {"window_count_ring", "window_count_packed", "window_count_sliced",
                                              "window_time"}


@pytest.mark.parametrize("path", BLOOM_FILES, ids=lambda p: p.stem)
def test_building_a_vector_gives_its_seen_file(path):
    assert build(read(path)).to_bytes() == path.with_suffix(".seen").read_bytes()


@pytest.mark.parametrize("path", BLOOM_FILES, ids=lambda p: p.stem)
def test_the_seen_file_gives_every_answer(path):
    v = read(path)
    assert v.queries
    with seen.BloomFilter.open(path.with_suffix(".seen")) as f:
        assert [(key, key in f) for key, _ in v.queries] == v.queries
        for kind in (int, bytes):
            batch = [(key, answer) for key, answer in v.queries if isinstance(key, kind)]
            if batch:
                keys, answers = zip(*batch)
                assert list(f.contains_many(list(keys))) == list(answers)


# --- exposure windows --------------------------------------------------------------------


def window_spec(v: Vector) -> seen.WindowSpec:
    assert v.kind == "window"
    if v.mode == "count":
        return seen.WindowSpec.last_items(v.span, fpr=v.fpr, seed=v.seed, max_slack=v.max_slack)
    return seen.WindowSpec.last_seconds(v.span, v.expected_items, fpr=v.fpr, seed=v.seed,
                                        max_slack=v.max_slack)


def replay(v: Vector):
    """The window after the script, and the answer of each query at its step's clock."""
    assert v.start is not None, "a window vector sets the clock with `now`"
    w = seen.Window(window_spec(v), now=v.start)
    answers = []
    for step in v.steps:
        if step.answer is None:
            w.add(step.key, now=step.now)
        else:
            answers.append((step.key, w.contains(step.key, now=step.now)))
    return w, answers


@pytest.mark.parametrize("path", WINDOW_FILES, ids=lambda p: p.stem)
def test_replaying_a_window_vector_gives_its_seen_file_and_answers(path):
    v = read(path)
    w, answers = replay(v)
    assert answers == v.queries
    assert w.to_bytes() == path.with_suffix(".seen").read_bytes()


@pytest.mark.parametrize("path", WINDOW_FILES, ids=lambda p: p.stem)
def test_replaying_in_batches_gives_the_same_window(path):
    # Runs of adds at one clock go in as one batch (ids and keys apart, in order).
    v = read(path)
    w = seen.Window(window_spec(v), now=v.start)
    run = []
    for step in v.steps + [None]:
        if run and (step is None or step.answer is not None or step.now != run[0].now
                    or type(step.key) is not type(run[0].key)):
            w.add_many([s.key for s in run], now=run[0].now)
            run = []
        if step is not None and step.answer is None:
            run.append(step)
    assert w.to_bytes() == path.with_suffix(".seen").read_bytes()


@pytest.mark.parametrize("path", WINDOW_FILES, ids=lambda p: p.stem)
def test_the_window_seen_file_gives_every_answer(path):
    v = read(path)
    assert len(v.queries) > 100
    last_add = max(i for i, step in enumerate(v.steps) if step.answer is None)
    queries = [step for step in v.steps[last_add:] if step.answer is not None]
    assert len(queries) == len(v.queries), "the vector's queries all follow its adds"
    w = seen.Window.from_bytes(path.with_suffix(".seen").read_bytes())
    assert (w.mode, w.span >= v.span, w.seed) == (v.mode, True, v.seed)
    assert [(s.key, w.contains(s.key, now=s.now)) for s in queries] == v.queries
    for kind in (int, bytes):
        batch = [s for s in queries if isinstance(s.key, kind)]
        assert len({s.now for s in batch}) <= 1
        if batch:
            found = w.contains_many([s.key for s in batch], now=batch[0].now)
            assert list(found) == [s.answer for s in batch]


def test_the_reader_knows_every_directive():
    v = parse("""# a comment
        kind bloom
        expected_items 10
        fpr 0.5
        seed 18446744073709551615
        add_u64 7   # trailing comment
        add_key 00ff
        add_key -
        query_u64 7 1
        query_key - 0
        """)
    assert (v.kind, v.expected_items, v.fpr, v.seed) == ("bloom", 10, 0.5, 2**64 - 1)
    assert v.adds == [7, b"\x00\xff", b""]
    assert v.queries == [(7, True), (b"", False)]


def test_the_reader_knows_window_directives():
    v = parse("""kind window
        mode time
        span 3600
        expected_items 300
        max_slack 0.25
        now 1000
        now 1120
        add_u64 7
        now 1240
        add_key 00
        query_u64 7 1
        """)
    assert (v.kind, v.mode, v.span, v.max_slack, v.start) == ("window", "time", 3600, 0.25, 1000)
    assert [tuple(s) for s in v.steps] == [(7, None, 1120), (b"\x00", None, 1240),
                                          (7, True, 1240)]


@pytest.mark.parametrize("text", ["kind cuckoo", "query_u64 7 2", "add_key zz", "unknown 1",
                                  "seed", "mode sometimes", "now later"])
def test_the_reader_refuses_what_it_does_not_know(text):
    with pytest.raises(ValueError, match="line 1"):
        parse(text)
