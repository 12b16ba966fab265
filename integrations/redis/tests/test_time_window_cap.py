"""A time window's memory cap follows what SEEN.RESERVE is told (ITEMS, or MAXBYTES), and
SEEN.INFO says when a window gave up time (capped) or rate (over_target)."""
from pathlib import Path

import pytest
import redis

from seen.redis import RedisWindows, pack_ids, unpack_bitmap
from servers import Server

HOUR = 3600
# A time window of an older file (layout 2, sized for 300 items at 1%): its rate rises with
# every item past those 300.
OLD_SLICED_WINDOW = Path(__file__).resolve().parents[3] / "tests/vectors/v1/window_time.seen"


def mark_within_the_hour(r, key, ids, batch=1000):
    """Marks ids in batches spread over the hour from the server's clock; returns its end."""
    start = int(r.time()[0])
    steps = len(ids) // batch
    for s in range(steps):
        now = start + s * (HOUR - 1) // steps
        r.execute_command("SEEN.MARKB", key, "NOW", now, pack_ids(ids[s * batch:(s + 1) * batch]))
    return start + HOUR - 1


def unseen(r, key, ids, now, batch=10_000):
    count = 0
    for i in range(0, len(ids), batch):
        chunk = ids[i:i + batch]
        bitmap = r.execute_command("SEEN.FILTERB", key, "NOW", now, pack_ids(chunk))
        count += sum(unpack_bitmap(bitmap, len(chunk)))
    return count


def test_items_size_the_cap_so_a_full_hour_is_kept(r):
    # Under a fixed 1 MiB cap, 173,522 of these read unseen (issue 27).
    r.execute_command("SEEN.RESERVE", "k", "SECONDS", HOUR, "ITEMS", 200_000)
    ids = list(range(1, 200_001))
    end = mark_within_the_hour(r, "k", ids)
    assert unseen(r, "k", ids, end) == 0
    info = RedisWindows(r).info("k")
    assert info["max_bytes"] == 48 * 200_000
    assert (info["effective_span"], info["capped"], info["over_target"]) == (HOUR, 0, 0)
    assert info["target_fpr"] == pytest.approx(0.01)


def test_a_small_items_keeps_the_one_mib_floor(r):
    r.execute_command("SEEN.RESERVE", "k", "SECONDS", HOUR, "ITEMS", 1000)
    assert RedisWindows(r).info("k")["max_bytes"] == 1 << 20


def test_maxbytes_caps_the_window_and_info_says_it_gave_up_time(r):
    r.execute_command("SEEN.RESERVE", "k", "SECONDS", HOUR, "ITEMS", 200_000,
                      "MAXBYTES", 1 << 20)
    end = mark_within_the_hour(r, "k", list(range(1, 200_001)))
    info = RedisWindows(r).info("k")
    assert info["max_bytes"] == 1 << 20
    assert info["bytes"] <= 1 << 20
    assert info["effective_span"] < HOUR and info["capped"] == 1
    assert r.execute_command("SEEN.FILTER", "k", "NOW", end, "200000") == []  # the newest stays


@pytest.mark.parametrize("args, error", [
    (("COUNT", 100, "MAXBYTES", 4096), "MAXBYTES bounds a time window"),
    (("SECONDS", 60, "ITEMS", 10, "MAXBYTES", 0), "MAXBYTES must be a positive integer"),
    (("SECONDS", 60, "ITEMS", 10, "MAXBYTES", "lots"), "MAXBYTES must be a positive integer"),
    (("SECONDS", 60, "ITEMS", 10, "MAXBYTES", 16), "max_bytes"),  # under the smallest window
])
def test_bad_maxbytes_is_refused(r, args, error):
    with pytest.raises(redis.ResponseError, match=error):
        r.execute_command("SEEN.RESERVE", "k", *args)
    assert not r.exists("k")


def test_info_says_when_a_window_is_over_its_target_rate(r):
    r.execute_command("SEEN.LOAD", "k", OLD_SLICED_WINDOW.read_bytes())
    windows = RedisWindows(r)
    assert (windows.info("k")["layout"], windows.info("k")["over_target"]) == ("sliced", 0)
    # On the server's clock, as SEEN.INFO measures: its segments of 1970 are long gone.
    r.execute_command("SEEN.MARKB", "k", pack_ids(range(1, 5001)))
    info = windows.info("k")
    assert info["fpr_now"] > info["target_fpr"] and info["over_target"] == 1


def test_module_arguments_derive_the_cap_too(tmp_path):
    server = Server(tmp_path, module_args=["SECONDS", str(HOUR), "ITEMS", "100000"])
    try:
        r = server.client()
        r.execute_command("SEEN.MARK", "made-by-a-mark", "1")
        assert RedisWindows(r).info("made-by-a-mark")["max_bytes"] == 48 * 100_000
        r.execute_command("SEEN.RESERVE", "reserved", "SECONDS", HOUR, "ITEMS", 1000)
        assert RedisWindows(r).info("reserved")["max_bytes"] == 1 << 20  # its own ITEMS
    finally:
        server.stop()
