"""The shared vectors of tests/vectors/: building each .vec gives its .seen file byte for
byte, and the .seen file (written by the C++ side) gives every expected answer."""
import pytest

import seen
from conftest import VECTORS
from vector_file import Vector, parse, read

VECTOR_FILES = sorted(VECTORS.glob("*.vec"))


def build(v: Vector) -> seen.BloomFilter:
    f = seen.BloomFilter(v.expected_items, v.fpr, seed=v.seed)
    for key in v.adds:
        f.add(key)
    return f


def test_the_vectors_are_there():
    assert VECTOR_FILES, f"no *.vec in {VECTORS}"


@pytest.mark.parametrize("path", VECTOR_FILES, ids=lambda p: p.stem)
def test_building_a_vector_gives_its_seen_file(path):
    assert build(read(path)).to_bytes() == path.with_suffix(".seen").read_bytes()


@pytest.mark.parametrize("path", VECTOR_FILES, ids=lambda p: p.stem)
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
    assert (v.expected_items, v.fpr, v.seed) == (10, 0.5, 2**64 - 1)
    assert v.adds == [7, b"\x00\xff", b""]
    assert v.queries == [(7, True), (b"", False)]


@pytest.mark.parametrize("text", ["kind counting", "query_u64 7 2", "add_key zz", "unknown 1",
                                  "seed"])
def test_the_reader_refuses_what_it_does_not_know(text):
    with pytest.raises(ValueError, match="line 1"):
        parse(text)
