"""Exposure windows from a Structured Streaming query: a foreachBatch function that marks
each micro-batch's (user, item[, time]) rows into the users' windows in seen's Redis module.

Each partition of a micro-batch goes from its executor straight to Redis: its rows grouped by
user, one SEEN.MARKB per user, pipelined. With a time column, a user's mark carries the
latest of its rows' seconds as NOW: an earlier row then lands in a segment at least as new as
its own, so it is kept at least as long, never less (a row per MARK would cost a round of
the pipeline per exposure). A retried micro-batch marks the same
ids again. That loses nothing, and a count window takes no new place for an id it holds (it
moves it to its newest one), so the retry pushes no other id out (docs/distributed.md,
"Streams"). NOW comes from the rows, so a replay lands where the first attempt did, whatever
the clock says then."""
from typing import Any, Callable, Dict, Iterable, List, Optional

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
        ids: Dict[Any, List[int]] = {}
        latest: Dict[Any, int] = {}
        for row in partition:
            ids.setdefault(row[0], []).append(int(row[1]))
            if time is not None:
                latest[row[0]] = max(latest.get(row[0], 0), int(row[2]))
        if not ids:
            return
        client = client_factory()
        pipe = client.pipeline(transaction=False)
        windows = RedisWindows(pipe)
        for n, (who, marked) in enumerate(ids.items(), start=1):
            windows.mark(f"{key_prefix}{{{who}}}", marked, now=latest.get(who))
            if n % pipeline_users == 0:
                pipe.execute()
        pipe.execute()

    def each_batch(batch: Any, batch_id: int) -> None:
        batch.select(*columns).foreachPartition(write)

    return each_batch
