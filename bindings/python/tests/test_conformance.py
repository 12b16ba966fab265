"""The behaviour cases of tests/vectors/conformance.cases, which the C API tests and every
binding run alike (the file's head says what each line means): len's rounding, the exception
of each bad argument, merges and round trips."""
from typing import Any, Dict, List, Tuple

import pytest

import seen
from conftest import VECTORS

KINDS = {"bloom": seen.BloomFilter, "counting": seen.CountingFilter}


def read_cases() -> Dict[str, List[List[str]]]:
    cases: Dict[str, List[List[str]]] = {}
    lines: List[List[str]] = []
    for text in (VECTORS / "conformance.cases").read_text(encoding="utf-8").splitlines():
        words = text.split("#")[0].split()
        if words[:1] == ["case"]:
            lines = cases.setdefault(words[1], [])
        elif words:
            lines.append(words)
    return cases


CASES = read_cases()


def create(words: List[str]) -> Any:
    if words[3] == "default":
        return KINDS[words[1]](int(words[2]), seed=int(words[4]))
    return KINDS[words[1]](int(words[2]), float(words[3]), int(words[4]))


def test_the_cases_are_read():
    assert len(CASES) > 10


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name: str) -> None:
    filter: Any = None
    other: Any = None
    sizing: Any = None
    failure: Tuple[Any, ...] = ()
    for op, *args in CASES[name]:
        if op == "create":
            try:
                filter = create([op, *args])
            except Exception as e:  # the next line, error, says what it must be
                failure = (e,)
        elif op == "error":
            (raised,) = failure
            assert isinstance(raised, seen.SeenError) and isinstance(raised, ValueError), repr(raised)
            assert raised.status_name == "SEEN_ERR_" + args[0]
            assert all(word in str(raised) for word in args[1:]), str(raised)
        elif op in ("add_u64", "other_add_u64"):
            (filter if op == "add_u64" else other).update(int(id) for id in args)
        elif op == "add_u64_range":
            filter.update(range(int(args[0]), int(args[1])))
        elif op == "add_str":
            filter.update(args)
        elif op == "len":
            assert len(filter) == int(args[0])
        elif op in ("has_u64", "lacks_u64"):
            assert [int(id) in filter for id in args] == [op == "has_u64"] * len(args)
        elif op in ("has_str", "lacks_str"):
            assert [key in filter for key in args] == [op == "has_str"] * len(args)
        elif op == "bytes":
            assert filter.size_bytes == int(args[0])
        elif op == "other":
            other = create([op, *args])
        elif op == "merge":
            if args:
                with pytest.raises(seen.SeenError) as raised:
                    filter |= other
                assert raised.value.status_name == "SEEN_ERR_" + args[0]
            else:
                filter |= other
        elif op == "intersect":
            if args:
                with pytest.raises(seen.SeenError) as raised:
                    filter &= other
                assert raised.value.status_name == "SEEN_ERR_" + args[0]
            else:
                filter &= other
        elif op == "covers":
            if args[0] in ("true", "false"):
                assert filter.issuperset(other) == (args[0] == "true")
                assert (other <= filter) == (args[0] == "true")
            else:
                with pytest.raises(seen.SeenError) as raised:
                    filter.issuperset(other)
                assert raised.value.status_name == "SEEN_ERR_" + args[0]
        elif op == "round_trip":
            filter = type(filter).from_bytes(filter.to_bytes())
        elif op in ("size_for", "predict_fpr"):
            try:
                sizing = seen.size_for(int(args[0]), float(args[1])) if op == "size_for" \
                    else seen.predict_fpr(int(args[0]), int(args[1]))
            except Exception as e:  # as for create
                failure = (e,)
        elif op == "sized":
            assert (sizing.bytes, sizing.k) == (int(args[0]), int(args[1]))
            assert args[2:] == [] or sizing.fpr == float(args[2])
        else:
            raise AssertionError(f"unknown line {op}")
