"""Exposure windows in Redis: helpers for the SEEN.* commands of seen's Redis module, over
the caller's own redis-py client (redis.Redis, redis.RedisCluster or a pipeline of either),
so redis-py is not a dependency of seen.

Integer ids travel packed (SEEN.MARKB / FILTERB / TAKEB: n x 8 little-endian bytes, and a
bitmap back); str and bytes ids use the argument forms. Keys such as "exp:{user}" keep every
command of one user on one Redis Cluster slot.

    >>> from seen.redis import RedisWindows
    >>> shown = RedisWindows(client)  # your redis.Redis(...) or redis.RedisCluster(...)
    >>> shown.mark("exp:{42}", [1001, 1002], ttl=30 * 86400)
    >>> shown.filter("exp:{42}", [1001, 1003, 1004])
    [1003, 1004]
    >>> shown.take("exp:{42}", 1, [1003, 1004])
    [1003]
"""
import struct
from typing import Any, Dict, List, Optional, Sequence, TypeGuard, Union

Id = Union[int, str, bytes]
# Binary replies stay bytes even on a client made with decode_responses=True.
_BINARY: Dict[str, Any] = {"NEVER_DECODE": []}


def pack_ids(ids: Sequence[int]) -> bytes:
    """Integer ids as the packed form: n x 8 little-endian bytes."""
    return struct.pack(f"<{len(ids)}Q", *ids)


def unpack_ids(packed: bytes) -> List[int]:
    """The packed form back to integer ids."""
    if len(packed) % 8:
        raise ValueError(f"packed ids must be a multiple of 8 bytes long, not {len(packed)}")
    return list(struct.unpack(f"<{len(packed) // 8}Q", packed))


def unpack_bitmap(bitmap: bytes, n: int) -> List[bool]:
    """SEEN.FILTERB's reply as n flags: True where candidate i is unseen (bit i, LSB first)."""
    if len(bitmap) != (n + 7) // 8:
        raise ValueError(f"a bitmap of {n} candidates has {(n + 7) // 8} bytes, not {len(bitmap)}")
    return [bool(bitmap[i >> 3] >> (i & 7) & 1) for i in range(n)]


def _all_ints(ids: Sequence[Id]) -> TypeGuard[Sequence[int]]:
    return all(isinstance(i, int) for i in ids)


def _now(now: Optional[int]) -> List[Any]:
    return [] if now is None else ["NOW", int(now)]


class RedisWindows:
    """The windows of many users in Redis, one key per user. `client` is any object with
    redis-py's execute_command; the module's defaults size windows that MARK creates."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def reserve(self, key: str, *, count: Optional[int] = None, seconds: Optional[int] = None,
                items: Optional[int] = None, fpr: Optional[float] = None,
                seed: Optional[int] = None) -> None:
        """Creates the window of the last `count` ids, or of the last `seconds` seconds
        holding at most `items` ids. An existing key is an error."""
        if (count is None) == (seconds is None):
            raise ValueError("give exactly one of count and seconds")
        args: List[Any] = ["COUNT", count] if count is not None else ["SECONDS", seconds]
        for name, value in (("ITEMS", items), ("FPR", fpr), ("SEED", seed)):
            if value is not None:
                args += [name, value]
        self.client.execute_command("SEEN.RESERVE", key, *args)

    def mark(self, key: str, ids: Sequence[Id], *, now: Optional[int] = None,
             ttl: Optional[int] = None) -> None:
        """Records that ids were shown; ttl (seconds) sets or refreshes the key's expiry."""
        if not ids:
            return
        opts = _now(now) + ([] if ttl is None else ["TTL", int(ttl)])
        if _all_ints(ids):
            self.client.execute_command("SEEN.MARKB", key, *opts, pack_ids(ids))
        else:
            self.client.execute_command("SEEN.MARK", key, *opts, *ids)

    def filter(self, key: str, ids: Sequence[Id], *, now: Optional[int] = None) -> List[Id]:
        """The ids not shown yet, in the order given."""
        if not ids:
            return []
        if _all_ints(ids):
            bitmap = self.client.execute_command("SEEN.FILTERB", key, *_now(now), pack_ids(ids),
                                                 **_BINARY)
            return [i for i, unseen in zip(ids, unpack_bitmap(bitmap, len(ids))) if unseen]
        reply = self.client.execute_command("SEEN.FILTER", key, *_now(now), *ids)
        unseen = {_raw(r) for r in reply}
        return [i for i in ids if _as_reply(i) in unseen]

    def take(self, key: str, want: int, ids: Sequence[Id], *,
             now: Optional[int] = None) -> List[Id]:
        """The first `want` ids not shown yet, recorded as shown in the same step."""
        if not ids:
            return []
        if _all_ints(ids):
            packed = self.client.execute_command("SEEN.TAKEB", key, want, *_now(now),
                                                 pack_ids(ids), **_BINARY)
            return list(unpack_ids(packed))
        taken = self.client.execute_command("SEEN.TAKE", key, want, *_now(now), *ids)
        by_reply = {_as_reply(i): i for i in ids}
        return [by_reply[_raw(t)] for t in taken]

    def info(self, key: str) -> Dict[str, Any]:
        """The window's layout, span, segments, slack, predicted_fpr (at design load), bytes
        (start_bytes and max_bytes for a growing window), seed and target_fpr, and on the
        server's clock its fill, fpr_now (the rate at that fill), effective_span, capped (1 if
        it gave up time to max_bytes) and over_target (1 if fpr_now > target_fpr)."""
        reply = self.client.execute_command("SEEN.INFO", key)
        return {_text(reply[i]): _value(reply[i + 1]) for i in range(0, len(reply), 2)}

    def load(self, key: str, window_bytes: bytes) -> None:
        """Sets the key to a serialized window (Window.to_bytes(), or a seen file)."""
        self.client.execute_command("SEEN.LOAD", key, window_bytes)


def _as_reply(i: Id) -> bytes:
    """An id as a client without decode_responses returns it."""
    return i if isinstance(i, bytes) else str(i).encode()


def _raw(reply: Any) -> bytes:
    """A reply as bytes, from a client with or without decode_responses."""
    return reply.encode() if isinstance(reply, str) else reply


def _text(v: Any) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


def _value(v: Any) -> Any:
    s = _text(v)
    for kind in (int, float):
        try:
            return kind(s)
        except ValueError:
            pass
    return s
