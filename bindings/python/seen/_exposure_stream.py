"""Exposure windows from a Structured Streaming query: a foreachBatch function that marks
each micro-batch's (user, item[, time]) rows into the users' windows in seen's Redis module.

Each partition of a micro-batch goes from its executor straight to Redis: its rows grouped by
user (and second), one SEEN.MARKB per group, pipelined. A retried micro-batch marks the same
ids again. That loses nothing, and a count window takes no new place for an id it holds (it
moves it to its newest one), so the retry pushes no other id out (docs/distributed.md,
"Streams"). With a time column, each mark carries its rows' own second (NOW), so a replay
lands where the first attempt did, whatever the clock says then."""
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from .redis import RedisWindows


def mark_exposures(client_factory: Callable[[], Any], *, user: str = "user", item: str = "item",
                   time: Optional[str] = None, key_prefix: str = "exp:",
                   pipeline_users: int = 500) -> Callable[[Any, int], None]:
    """A function for `writeStream.foreachBatch` that marks every row's item (an integer id)
    in the window of `key_prefix + {user}` (braces keep a user's keys in one cluster slot).

    client_factory: makes a redis-py client (redis.Redis, or redis.RedisCluster); it is sent to
    the executors and called once per partition, since clients do not pickle. time: a column
    of Unix seconds, sent as NOW; without it, each mark takes the server's clock.
    pipeline_users: users marked per pipeline round trip."""
    if pipeline_users < 1:
        raise ValueError(f"pipeline_users must be at least 1, not {pipeline_users}")
    columns = [user, item] + ([time] if time is not None else [])

    def write(partition: Iterable[Any]) -> None:
        groups: Dict[Tuple[Any, Optional[int]], List[int]] = {}
        for row in partition:
            now = int(row[2]) if time is not None else None
            groups.setdefault((row[0], now), []).append(int(row[1]))
        if not groups:
            return
        client = client_factory()
        pipe = client.pipeline(transaction=False)
        windows = RedisWindows(pipe)
        for n, ((who, now), ids) in enumerate(groups.items(), start=1):
            windows.mark(f"{key_prefix}{{{who}}}", ids, now=now)
            if n % pipeline_users == 0:
                pipe.execute()
        pipe.execute()

    def each_batch(batch: Any, batch_id: int) -> None:
        batch.select(*columns).foreachPartition(write)

    return each_batch
