"""Reads the shared test vectors of tests/vectors/: a .vec text file says how to build a
filter or a window and what it must answer; the .seen file beside it is what every language
must produce byte for byte.

One directive per line, '#' starts a comment:
    kind bloom|window|counting|scalable | expected_items N | fpr P | seed S
    windows only: mode count|time | span N | max_slack X | now T (the clock from here on;
        the window is created at the first `now`)
    scalable only: capacity N (initial) | growth G | tightening T (fpr is the bound)
    add_u64 ID | add_key HEX (- for the empty key)
    counting only: remove_u64 ID 0|1 | remove_key HEX 0|1 (1: removed, 0: certainly absent)
    query_u64 ID 0|1 | query_key HEX 0|1
Directives apply in order: a window's adds and queries happen at the latest `now`.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, NamedTuple, Optional, Tuple, Union

Key = Union[int, bytes]  # an int is a u64 id, bytes a byte key


class Step(NamedTuple):
    """One add or query in script order, at clock `now`; answer is None for an add."""
    key: Key
    answer: Optional[bool]
    now: int


class Op(NamedTuple):
    """One add, remove or query in script order; answer is None for an add, whether the key
    was removed for a remove, whether it is found for a query."""
    op: str  # "add", "remove" or "query"
    key: Key
    answer: Optional[bool]


@dataclass
class Vector:
    kind: str = ""
    expected_items: int = 0
    fpr: float = 0.0
    seed: int = 0
    adds: List[Key] = field(default_factory=list)
    queries: List[Tuple[Key, bool]] = field(default_factory=list)
    # windows only
    mode: str = ""
    span: int = 0
    max_slack: float = 0.0
    start: Optional[int] = None  # the first `now`: when the window is created
    steps: List[Step] = field(default_factory=list)
    # scalable only
    capacity: int = 0
    growth: float = 0.0
    tightening: float = 0.0
    # every add, remove and query in order (counting filters remove)
    ops: List[Op] = field(default_factory=list)


def _key(hex_or_dash: str) -> bytes:
    return b"" if hex_or_dash == "-" else bytes.fromhex(hex_or_dash)


def _answer(word: str) -> bool:
    if word not in ("0", "1"):
        raise ValueError(f"expected answer 0 or 1, got {word!r}")
    return word == "1"


# The directives that set one number of the Vector's parameters, each its field's name.
_NUMBERS = {"expected_items": int, "fpr": float, "seed": int, "span": int, "max_slack": float,
            "capacity": int, "growth": float, "tightening": float}


def parse(text: str) -> Vector:
    """The vector in text; raises ValueError naming the line of anything it does not know."""
    v = Vector()
    now = 0
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        directive, args = words[0], words[1:]
        try:
            if directive == "kind":
                if args not in (["bloom"], ["window"], ["counting"], ["scalable"]):
                    raise ValueError(f"unknown kind {args}")
                v.kind = args[0]
            elif directive == "mode":
                if args not in (["count"], ["time"]):
                    raise ValueError(f"unknown mode {args}")
                v.mode = args[0]
            elif directive in _NUMBERS:
                setattr(v, directive, _NUMBERS[directive](args[0]))
            elif directive == "now":
                now = int(args[0])
                if v.start is None:
                    v.start = now
            elif directive in ("add_u64", "add_key"):
                key: Key = int(args[0]) if directive == "add_u64" else _key(args[0])
                v.adds.append(key)
                v.steps.append(Step(key, None, now))
                v.ops.append(Op("add", key, None))
            elif directive in ("remove_u64", "remove_key"):
                key = int(args[0]) if directive == "remove_u64" else _key(args[0])
                v.ops.append(Op("remove", key, _answer(args[1])))
            elif directive in ("query_u64", "query_key"):
                key = int(args[0]) if directive == "query_u64" else _key(args[0])
                v.queries.append((key, _answer(args[1])))
                v.steps.append(Step(key, v.queries[-1][1], now))
                v.ops.append(Op("query", key, v.queries[-1][1]))
            else:
                raise ValueError(f"unknown directive {directive!r}")
        except (ValueError, IndexError) as e:
            raise ValueError(f"line {number}: {line.strip()!r}: {e}") from None
    return v


def read(path: Path) -> Vector:
    return parse(path.read_text())
