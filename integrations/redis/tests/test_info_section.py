"""INFO seen: windows, their bytes, capped and over-target windows over the whole keyspace,
and counters of marks, filters, takes and candidates, each moving as the commands say."""
import time
from pathlib import Path

import seen

from seen.redis import RedisWindows, pack_ids

OLD_SLICED_WINDOW = Path(__file__).resolve().parents[3] / "tests/vectors/v1/window_time.seen"
COUNTERS = ("seen_marks", "seen_filters", "seen_takes", "seen_candidates")


def info(r):
    return r.info("seen")


def moved(before, after):
    return {name: after[name] - before[name] for name in COUNTERS}


def test_an_empty_keyspace_has_no_windows(r):
    figures = info(r)
    assert (figures["seen_windows"], figures["seen_bytes"]) == (0, 0)
    assert (figures["seen_capped_windows"], figures["seen_over_target_windows"]) == (0, 0)


def test_each_counter_moves_with_its_command(r):
    before = info(r)
    r.execute_command("SEEN.MARK", "a", "1", "2", "x")
    r.execute_command("SEEN.MARKB", "a", pack_ids(range(10, 15)))
    assert moved(before, info(r)) == {"seen_marks": 8, "seen_filters": 0, "seen_takes": 0,
                                      "seen_candidates": 0}
    before = info(r)
    r.execute_command("SEEN.FILTER", "a", "1", "3", "y", "z")
    r.execute_command("SEEN.FILTERB", "a", pack_ids(range(20)))
    r.execute_command("SEEN.FILTER", "nobody", "1")  # a missing key is a filter too
    assert moved(before, info(r)) == {"seen_marks": 0, "seen_filters": 3, "seen_takes": 0,
                                      "seen_candidates": 25}
    before = info(r)
    assert len(r.execute_command("SEEN.TAKE", "a", 2, *map(str, range(100, 106)))) == 2
    r.execute_command("SEEN.TAKEB", "a", 1, pack_ids([1, 2, 200]))
    assert moved(before, info(r)) == {"seen_marks": 0, "seen_filters": 0, "seen_takes": 2,
                                      "seen_candidates": 9}


def test_a_refused_command_counts_nothing(r):
    r.set("text", "not a window")
    before = info(r)
    for command in (("SEEN.MARK", "text", "1"), ("SEEN.FILTER", "text", "1"),
                    ("SEEN.TAKE", "text", 1, "1")):
        try:
            r.execute_command(*command)
        except Exception:  # WRONGTYPE
            pass
    assert moved(before, info(r)) == dict.fromkeys(COUNTERS, 0)


def test_windows_and_bytes_cover_every_database_and_only_windows(r, server):
    windows = RedisWindows(r)
    r.execute_command("SEEN.MARK", "a", "1")
    r.execute_command("SEEN.RESERVE", "b", "SECONDS", 3600, "ITEMS", 1000)
    r.set("text", "not a window")
    other_db = server.client(db=3)
    RedisWindows(other_db).mark("c", [1, 2, 3])
    asked = {"a": windows.info("a")["bytes"], "b": windows.info("b")["bytes"],
             "c": RedisWindows(other_db).info("c")["bytes"]}
    figures, memory = info(r), r.info("memory")
    assert figures["seen_windows"] == 3
    # Blocks as the allocator sized them, handles too: more than the windows' own bytes.
    assert sum(asked.values()) < figures["seen_bytes"]
    assert figures["seen_bytes"] < memory["used_memory"] - memory["used_memory_startup"]
    other_db.delete("c")
    after = info(r)
    assert after["seen_windows"] == 2
    assert after["seen_bytes"] <= figures["seen_bytes"] - asked["c"]
    r.execute_command("SEEN.MARKB", "b", pack_ids(range(5000)))
    grown = windows.info("b")["bytes"] - asked["b"]
    assert info(r)["seen_bytes"] - after["seen_bytes"] >= grown > 0
    r.flushall()
    assert (info(r)["seen_windows"], info(r)["seen_bytes"]) == (0, 0)


def test_reload_copy_and_asynchronous_flush_keep_the_count(r):
    for user in range(50):
        r.execute_command("SEEN.MARKB", f"u{user}", pack_ids(range(user, user + 100)))
    figures = info(r)
    assert r.execute_command("DEBUG", "RELOAD")
    assert (info(r)["seen_windows"], info(r)["seen_bytes"]) == (50, figures["seen_bytes"])
    r.copy("u1", "copied")
    assert info(r)["seen_windows"] == 51
    r.execute_command("SEEN.LOAD", "u2", seen.Window.last_items(500).to_bytes())  # replaces u2
    assert info(r)["seen_windows"] == 51
    r.flushall(asynchronous=True)
    for _ in range(200):  # the background thread frees them
        if (info(r)["seen_windows"], info(r)["seen_bytes"]) == (0, 0):
            break
        time.sleep(0.02)
    assert (info(r)["seen_windows"], info(r)["seen_bytes"]) == (0, 0)


def test_capped_and_over_target_windows_are_counted(r):
    # 16 KiB hold a quarter hour's 900 ids but not the hour's: time is given up.
    r.execute_command("SEEN.RESERVE", "capped", "SECONDS", 3600, "ITEMS", 1000, "MAXBYTES", 16384)
    # 4 KiB cannot hold even a quarter hour's 7,500: rate is given up, never an id.
    r.execute_command("SEEN.RESERVE", "full", "SECONDS", 3600, "ITEMS", 1000, "MAXBYTES", 4096)
    start = int(r.time()[0])
    for second in range(0, 3600, 60):
        r.execute_command("SEEN.MARKB", "capped", "NOW", start + second,
                          pack_ids(range(second * 1000, second * 1000 + 60)))
        r.execute_command("SEEN.MARKB", "full", "NOW", start + second,
                          pack_ids(range(second * 1000, second * 1000 + 500)))
    assert RedisWindows(r).info("capped")["capped"] == 1
    assert RedisWindows(r).info("capped")["over_target"] == 0
    assert RedisWindows(r).info("full")["over_target"] == 1
    r.execute_command("SEEN.LOAD", "old", OLD_SLICED_WINDOW.read_bytes())
    r.execute_command("SEEN.MARKB", "old", pack_ids(range(5000)))  # 300 expected
    assert RedisWindows(r).info("old")["over_target"] == 1
    figures = info(r)
    assert (figures["seen_capped_windows"], figures["seen_over_target_windows"]) == (1, 2)
