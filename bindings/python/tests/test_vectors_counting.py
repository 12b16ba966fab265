"""The shared vectors of the counting and scalable filters (tests/vectors/counting_*.vec and
scalable_*.vec): replaying each script gives its .seen file byte for byte and every answer
the script states (every remove's flag, every query), one key at a time and in batches; the
.seen file, loaded every way, gives every query's answer again."""
import numpy
import pytest

import seen
from conftest import VECTORS
from vector_file import Op, Vector, parse, read

COUNTING_FILES = sorted(VECTORS.glob("counting_*.vec"))
SCALABLE_FILES = sorted(VECTORS.glob("scalable_*.vec"))


def test_the_vectors_are_there():
    assert {p.stem for p in COUNTING_FILES} >= {"counting_u64", "counting_keys_saturated"}
    assert {p.stem for p in SCALABLE_FILES} >= {"scalable_u64", "scalable_mixed"}


def runs(ops):
    """The script as runs of one operation on keys of one type (ids or bytes), in order."""
    run = []
    for op in ops + [None]:
        if run and (op is None or op.op != run[0].op or type(op.key) is not type(run[0].key)):
            yield run[0].op, run
            run = []
        if op is not None:
            run.append(op)


# --- counting filters --------------------------------------------------------------------


def counting(v: Vector) -> seen.CountingFilter:
    assert v.kind == "counting"
    return seen.CountingFilter(v.expected_items, v.fpr, seed=v.seed)


@pytest.mark.parametrize("path", COUNTING_FILES, ids=lambda p: p.stem)
def test_replaying_a_counting_vector_key_by_key(path):
    v = read(path)
    assert any(op.op == "remove" and not op.answer for op in v.ops), "some removes refused"
    f = counting(v)
    answers = []
    for op in v.ops:
        if op.op == "add":
            f.add(op.key)
        elif op.op == "remove":
            answers.append(f.discard(op.key))
        else:
            answers.append(op.key in f)
    assert answers == [op.answer for op in v.ops if op.op != "add"]
    assert f.to_bytes() == path.with_suffix(".seen").read_bytes()


@pytest.mark.parametrize("path", COUNTING_FILES, ids=lambda p: p.stem)
def test_the_counting_seen_file_gives_every_answer(path, tmp_path):
    v = read(path)
    data = path.with_suffix(".seen").read_bytes()
    last_change = max(i for i, op in enumerate(v.ops) if op.op != "query")
    assert len(v.ops[last_change + 1:]) == len(v.queries) > 100, "the queries follow every change"
    copy = tmp_path / "copy.seen"
    copy.write_bytes(data)
    for f in (seen.CountingFilter.from_bytes(data), seen.CountingFilter.view(data),
              seen.CountingFilter.open(path.with_suffix(".seen")),
              seen.CountingFilter.open(copy, read_only=False)):
        with f:
            assert (f.seed, f.expected_items, f.fpr) == (v.seed, v.expected_items, v.fpr)
            assert [(key, key in f) for key, _ in v.queries] == v.queries
    assert copy.read_bytes() == data  # a read-write open that changed nothing


def test_the_saturated_vector_has_saturated_counters():
    f = seen.CountingFilter.from_bytes((VECTORS / "counting_keys_saturated.seen").read_bytes())
    assert f.saturated > 0


# --- scalable filters --------------------------------------------------------------------


def scalable(v: Vector) -> seen.ScalableFilter:
    assert v.kind == "scalable"
    return seen.ScalableFilter(v.capacity, v.fpr, growth=v.growth, tightening=v.tightening,
                               seed=v.seed)


@pytest.mark.parametrize("path", SCALABLE_FILES, ids=lambda p: p.stem)
def test_replaying_a_scalable_vector_key_by_key(path):
    v = read(path)
    f = scalable(v)
    answers = []
    for op in v.ops:
        if op.op == "add":
            f.add(op.key)
        else:
            answers.append((op.key, op.key in f))
    assert answers == v.queries
    assert f.subfilters > 1
    assert f.to_bytes() == path.with_suffix(".seen").read_bytes()


@pytest.mark.parametrize("path", SCALABLE_FILES, ids=lambda p: p.stem)
def test_the_scalable_seen_file_gives_every_answer(path):
    v = read(path)
    data = path.with_suffix(".seen").read_bytes()
    for f in (seen.ScalableFilter.from_bytes(data),
              seen.ScalableFilter.open(path.with_suffix(".seen")),
              seen.ScalableFilter.open(path.with_suffix(".seen"), read_only=False)):
        with f:
            assert (f.initial_capacity, f.fpr, f.growth, f.tightening, f.seed) == (
                v.capacity, v.fpr, v.growth, v.tightening, v.seed)
            assert [(key, key in f) for key, _ in v.queries] == v.queries
            for kind in (int, bytes):
                batch = [(key, answer) for key, answer in v.queries if isinstance(key, kind)]
                keys, answers = zip(*batch)
                assert list(f.contains_many(list(keys))) == list(answers)


# --- both, in batches --------------------------------------------------------------------


@pytest.mark.parametrize("as_array", [False, True], ids=["id lists", "id arrays"])
@pytest.mark.parametrize("path", COUNTING_FILES + SCALABLE_FILES, ids=lambda p: p.stem)
def test_replaying_a_vector_in_batches(path, as_array):
    v = read(path)
    f = counting(v) if v.kind == "counting" else scalable(v)
    for op, run in runs(v.ops):
        keys = [o.key for o in run]
        if as_array and isinstance(keys[0], int):
            keys = numpy.array(keys, dtype=numpy.uint64)
        if op == "add":
            f.add_many(keys)
        elif op == "remove":
            assert list(f.remove_many(keys)) == [o.answer for o in run]
        else:
            assert list(f.contains_many(keys)) == [o.answer for o in run]
    assert f.to_bytes() == path.with_suffix(".seen").read_bytes()


# --- the reader ----------------------------------------------------------------------------


def test_the_reader_knows_counting_directives():
    v = parse("""kind counting
        expected_items 10
        fpr 0.1
        add_u64 7
        add_key 00ff
        remove_u64 7 1
        remove_key - 0
        query_key 00ff 1
        """)
    assert v.kind == "counting"
    assert v.ops == [Op("add", 7, None), Op("add", b"\x00\xff", None), Op("remove", 7, True),
                     Op("remove", b"", False), Op("query", b"\x00\xff", True)]


def test_the_reader_knows_scalable_directives():
    v = parse("kind scalable\ncapacity 50\nfpr 0.05\ngrowth 3\ntightening 0.8\nseed 62\n")
    assert (v.kind, v.capacity, v.fpr, v.growth, v.tightening, v.seed) == (
        "scalable", 50, 0.05, 3.0, 0.8, 62)


@pytest.mark.parametrize("text", ["remove_u64 7", "remove_u64 7 2", "capacity many"])
def test_the_reader_refuses_bad_counting_and_scalable_lines(text):
    with pytest.raises(ValueError, match="line 1"):
        parse(text)
