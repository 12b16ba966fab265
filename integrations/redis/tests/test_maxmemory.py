"""Windows live in Redis's memory: used_memory counts them, so maxmemory holds with eviction,
refuses writes without it, and MEMORY USAGE matches what a window takes."""
import pytest
import redis

from seen.redis import pack_ids
from servers import Server

MAXMEMORY = 50 << 20


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_allkeys_lru_evicts_windows_and_rss_stays_near_maxmemory(tmp_path):
    # Before windows were allocated through Redis: 0 evictions and 273 MB of RSS (issue 28).
    # The server's own RSS before any key (about 12 MB, as much with the module as without)
    # is not the windows': what they add must stay under 1.2 x maxmemory.
    server = Server(tmp_path, extra=["--maxmemory", str(MAXMEMORY),
                                     "--maxmemory-policy", "allkeys-lru"])
    try:
        r = server.client()
        rss_at_start = rss_bytes(server.proc.pid)
        pipe = r.pipeline(transaction=False)
        for user in range(100_000):  # 500 ids each: about 1 KB of window per user
            pipe.execute_command("SEEN.MARKB", f"exp:{{{user}}}", pack_ids(range(user, user + 500)))
            if user % 1000 == 999:
                pipe.execute()
        pipe.execute()
        stats = r.info("stats")
        memory = r.info("memory")
        assert stats["evicted_keys"] > 0
        assert memory["used_memory"] <= MAXMEMORY * 1.05
        assert rss_bytes(server.proc.pid) - rss_at_start <= 1.2 * MAXMEMORY
        # What is left answers as before: the newest user's ids are all there.
        assert r.execute_command("SEEN.FILTERB", "exp:{99999}", pack_ids(range(99999, 100499))) \
            == bytes(63)
    finally:
        server.stop()


def test_without_eviction_a_reserve_past_maxmemory_is_refused(tmp_path):
    # Before: 40 reserves of COUNT 16777216 (32 MB each) all returned OK and took 1.29 GB.
    server = Server(tmp_path, extra=["--maxmemory", str(100 << 20),
                                     "--maxmemory-policy", "noeviction"])
    try:
        r = server.client()
        refused = 0
        for n in range(40):
            try:
                r.execute_command("SEEN.RESERVE", f"big:{n}", "COUNT", 16_777_216)
            except redis.exceptions.OutOfMemoryError:
                refused += 1
        assert refused >= 35
        assert r.info("memory")["used_memory"] < (100 << 20) + (64 << 20)
    finally:
        server.stop()


def test_dataset_memory_per_window_matches_memory_usage(r):
    r.execute_command("FLUSHALL")
    before = r.info("memory")["used_memory_dataset"]  # without client buffers
    users = 2000
    pipe = r.pipeline(transaction=False)
    for user in range(users):
        pipe.execute_command("SEEN.MARKB", f"exp:{{{user}}}", pack_ids(range(user, user + 500)))
    pipe.execute()
    per_user = (r.info("memory")["used_memory_dataset"] - before) / users
    usage = r.memory_usage("exp:{7}")
    assert usage == pytest.approx(per_user, rel=0.10)
