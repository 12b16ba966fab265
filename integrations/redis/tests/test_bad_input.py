"""Bad input gets an error reply; the server stays up and loses no other key.

RESTORE checks a payload's CRC-64 before the module sees it, so the mutated payloads here
carry a recomputed CRC: each one reaches the module's RDB loader."""
import random
import struct

import pytest
import redis

import seen
from keyspace import assert_same_windows, populate, snapshot
from seen.redis import pack_ids

# Redis's CRC-64 (Jones polynomial, reflected, no final xor).
_POLY = 0x95AC9329AC4BC9B5
_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ _POLY if _c & 1 else _c >> 1
    _TABLE.append(_c)


def crc64(data: bytes) -> int:
    crc = 0
    for b in data:
        crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc


def with_crc(body: bytes) -> bytes:
    """A DUMP payload from its body (value, then the 2-byte RDB version)."""
    return body + struct.pack("<Q", crc64(body))


def test_crc64_matches_redis():
    assert crc64(b"123456789") == 0xE9C6D914C4B8D9CA


def mutate(body: bytes, rng: random.Random) -> bytes:
    """One random damage to the value part of a payload (the RDB version stays)."""
    value, version = bytearray(body[:-2]), body[-2:]
    kind = rng.randrange(5)
    i = rng.randrange(len(value))
    if kind == 0:
        value[i] ^= 1 << rng.randrange(8)
    elif kind == 1:
        value[i] = rng.randrange(256)
    elif kind == 2:
        del value[i:i + rng.randrange(1, 16)]
    elif kind == 3:
        value[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
    else:
        value = value[:i]
    return bytes(value) + version


@pytest.fixture
def sentinels(r):
    """Other keys that must survive every bad payload."""
    populate(r, users=30)
    r.set("plain", "value")
    return snapshot(r)


def test_ten_thousand_mutated_dump_payloads_get_errors(r, sentinels):
    r.execute_command("SEEN.RESERVE", "count", "COUNT", 20)
    r.execute_command("SEEN.MARKB", "count", pack_ids(range(15)))
    r.execute_command("SEEN.RESERVE", "time", "SECONDS", 60, "ITEMS", 10)
    r.execute_command("SEEN.MARK", "time", "a", "b")
    bodies = [r.dump(k)[:-8] for k in ("count", "time")]
    for n, body in enumerate(bodies):  # our CRC is Redis's: an intact body restores
        assert r.restore(f"intact:{n}", 0, with_crc(body))
        r.delete(f"intact:{n}")
    rng = random.Random(10_000)
    rejected = accepted = 0
    pipe = r.pipeline(transaction=False)
    for n in range(10_000):
        pipe.restore(f"bad:{n}", 0, with_crc(mutate(bodies[n % 2], rng)))
    for n, reply in enumerate(pipe.execute(raise_on_error=False)):
        if isinstance(reply, redis.ResponseError):
            rejected += 1
        else:
            accepted += 1  # the damage missed what the loader reads: the key must work
            r.execute_command("SEEN.FILTER", f"bad:{n}", "x")
    assert r.ping()
    # Every byte of a window is checksummed; what passes is damage to Redis's own framing
    # that leaves the same value (for example a type byte rewritten to an equal encoding).
    assert rejected >= 9_900, (rejected, accepted)
    for key in list(r.scan_iter("bad:*")):
        r.delete(key)
    r.delete("count", "time")
    assert_same_windows(sentinels, snapshot(r))


def test_truncated_flipped_and_wrong_kind_blobs_get_errors(r, sentinels):
    good = seen.Window.last_items(50).to_bytes()
    blobs = [good[:n] for n in range(0, len(good), 7)]
    blobs += [good[:i] + bytes([good[i] ^ 0x10]) + good[i + 1:] for i in range(len(good))]
    blobs.append(seen.BloomFilter(expected_items=100, fpr=0.01).to_bytes())  # wrong kind
    for blob in blobs:
        with pytest.raises(redis.ResponseError, match="seen"):
            r.execute_command("SEEN.LOAD", "loaded", blob)
    # A valid payload of another type under a key: the module's commands refuse it.
    r.restore("set", 0, r.dump("plain"))
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        r.execute_command("SEEN.FILTER", "set", "1")
    r.delete("set")
    assert r.ping() and r.exists("loaded") == 0
    assert_same_windows(sentinels, snapshot(r))


BAD_COMMANDS = [
    ("SEEN.MARK", "k"),
    ("SEEN.MARK", "k", "NOW", "5"),
    ("SEEN.MARK", "k", "NOW", "-5", "1"),
    ("SEEN.MARK", "k", "NOW", str(2**32), "1"),
    ("SEEN.MARK", "k", "TTL", "0", "1"),
    ("SEEN.MARKB", "k", b"1234567"),
    ("SEEN.MARKB", "k", b"12345678", b"12345678"),
    ("SEEN.FILTER", "k"),
    ("SEEN.FILTERB", "k", b"123"),
    ("SEEN.TAKE", "k", "1"),
    ("SEEN.TAKE", "k", "-1", "a"),
    ("SEEN.TAKE", "k", "many", "a"),
    ("SEEN.TAKEB", "k", "1", b"1"),
    ("SEEN.RESERVE", "k"),
    ("SEEN.RESERVE", "k", "COUNT", "0"),
    ("SEEN.RESERVE", "k", "COUNT"),
    ("SEEN.RESERVE", "k", "SECONDS", "60"),
    ("SEEN.RESERVE", "k", "COUNT", "10", "FPR", "1.5"),
    ("SEEN.RESERVE", "k", "COUNT", "10", "SEED", "-1"),
    ("SEEN.RESERVE", "k", "COUNT", "10", "COLOR", "red"),
    ("SEEN.RESERVE", "plain", "COUNT", "10"),
    ("SEEN.INFO", "k"),
    ("SEEN.INFO", "k", "extra"),
    ("SEEN.LOAD", "k"),
    ("SEEN.LOAD", "k", b"not a window"),
    ("SEEN.MARK", "plain", "1"),
    ("SEEN.FILTERB", "plain", b"12345678"),
    ("SEEN.TAKE", "plain", "1", "a"),
    ("SEEN.LOAD", "plain", b""),
]


@pytest.mark.parametrize("command", BAD_COMMANDS, ids=lambda c: " ".join(map(str, c))[:40])
def test_bad_arguments_get_an_error_reply(r, sentinels, command):
    with pytest.raises(redis.ResponseError):
        r.execute_command(*command)
    assert r.exists("k") == 0
    assert_same_windows(sentinels, snapshot(r))
