"""seen.redis over a real redis-py client: its docstring example runs, and ids of every kind
round-trip through the packed and argument forms."""
import doctest

import pytest

import seen.redis
from seen.redis import RedisWindows, pack_ids, unpack_bitmap, unpack_ids


def test_docstring_example_runs(r):
    result = doctest.testmod(seen.redis, extraglobs={"client": r})
    assert result.attempted >= 4 and result.failed == 0


def test_packing_is_little_endian_and_lsb_first():
    assert pack_ids([1, 2**64 - 1]) == b"\x01" + b"\x00" * 7 + b"\xff" * 8
    assert unpack_ids(pack_ids([5, 2**63])) == [5, 2**63]
    assert unpack_bitmap(b"\x05\x01", 9) == [True, False, True] + [False] * 5 + [True]
    with pytest.raises(ValueError):
        unpack_bitmap(b"\x00", 9)


@pytest.mark.parametrize("decode", [False, True])
def test_helpers_round_trip_ints_strings_and_bytes(server, decode):
    client = server.client(decode_responses=decode)
    client.flushall()
    w = RedisWindows(client)
    w.reserve("k", count=100, fpr=0.001, seed=3)
    w.mark("k", [1, 2**64 - 1], now=10, ttl=60)
    w.mark("k", ["café", b"\x00raw"])
    assert w.filter("k", [1, 3, 2**64 - 1]) == [3]
    assert w.filter("k", ["café", "tea", b"\x00raw"]) == ["tea"]
    assert w.take("k", 5, [3, 1, 4]) == [3, 4]
    assert w.take("k", 1, ["tea", "milk"]) == ["tea"]
    assert w.info("k")["span"] == 100
    window = seen.Window.last_items(10)
    window.add(7)
    w.load("copy", window.to_bytes())
    assert w.filter("copy", [7, 8]) == [8]
