"""Reads the shared test vectors of tests/vectors/: a .vec text file says how to build a
filter and what it must answer; the .seen file beside it is the filter every language must
produce byte for byte.

One directive per line, '#' starts a comment:
    kind bloom | expected_items N | fpr P | seed S
    add_u64 ID | add_key HEX (- for the empty key)
    query_u64 ID 0|1 | query_key HEX 0|1
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Tuple, Union

Key = Union[int, bytes]  # an int is a u64 id, bytes a byte key


@dataclass
class Vector:
    expected_items: int = 0
    fpr: float = 0.0
    seed: int = 0
    adds: List[Key] = field(default_factory=list)
    queries: List[Tuple[Key, bool]] = field(default_factory=list)


def _key(hex_or_dash: str) -> bytes:
    return b"" if hex_or_dash == "-" else bytes.fromhex(hex_or_dash)


def _answer(word: str) -> bool:
    if word not in ("0", "1"):
        raise ValueError(f"expected answer 0 or 1, got {word!r}")
    return word == "1"


def parse(text: str) -> Vector:
    """The vector in text; raises ValueError naming the line of anything it does not know."""
    v = Vector()
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        directive, args = words[0], words[1:]
        try:
            if directive == "kind":
                if args != ["bloom"]:
                    raise ValueError(f"unknown kind {args}")
            elif directive == "expected_items":
                v.expected_items = int(args[0])
            elif directive == "fpr":
                v.fpr = float(args[0])
            elif directive == "seed":
                v.seed = int(args[0])
            elif directive == "add_u64":
                v.adds.append(int(args[0]))
            elif directive == "add_key":
                v.adds.append(_key(args[0]))
            elif directive == "query_u64":
                v.queries.append((int(args[0]), _answer(args[1])))
            elif directive == "query_key":
                v.queries.append((_key(args[0]), _answer(args[1])))
            else:
                raise ValueError(f"unknown directive {directive!r}")
        except (ValueError, IndexError) as e:
            raise ValueError(f"line {number}: {line.strip()!r}: {e}") from None
    return v


def read(path: Path) -> Vector:
    return parse(path.read_text())
