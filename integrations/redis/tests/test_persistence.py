"""Windows survive DEBUG RELOAD, an AOF rewrite and restart, and a SAVE and restart, byte for
byte, with their TTLs."""
from keyspace import assert_same_windows, populate, snapshot
from servers import Server
from seen.redis import pack_ids


def test_debug_reload_keeps_every_window(r):
    populate(r)
    before = snapshot(r)
    assert r.execute_command("DEBUG", "RELOAD")
    assert_same_windows(before, snapshot(r))


def test_save_and_restart_keeps_every_window(tmp_path):
    server = Server(tmp_path)
    try:
        r = server.client()
        populate(r)
        before = snapshot(r)
        assert r.save()
        server.restart()
        assert_same_windows(before, snapshot(server.client()))
    finally:
        server.stop()


def test_aof_rewrite_and_restart_keeps_every_window(tmp_path):
    server = Server(tmp_path, extra=["--appendonly", "yes", "--appendfsync", "always"])
    try:
        r = server.client()
        populate(r, users=100)
        r.bgrewriteaof()
        for _ in range(400):  # the rewrite emits SEEN.LOAD per key
            info = r.info("persistence")
            if not info["aof_rewrite_in_progress"] and not info["aof_rewrite_scheduled"]:
                break
            __import__("time").sleep(0.05)
        assert info["aof_last_bgrewrite_status"] == "ok"
        # Writes after the rewrite replay from the AOF's tail, with the NOW they ran at.
        pipe = r.pipeline(transaction=False)
        for u in range(100):
            pipe.execute_command("SEEN.MARKB", f"exp:{{{u}}}", pack_ids([10**6 + u]))
            pipe.execute_command("SEEN.TAKE", f"exp:{{{u}}}", 1, "a", "b")
        pipe.execute()
        before = snapshot(r)
        server.restart()
        assert_same_windows(before, snapshot(server.client()))
    finally:
        server.stop()
