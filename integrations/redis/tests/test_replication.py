"""A replica holds the same bytes as its primary after WAIT: writes replicate with an
explicit NOW, TAKE as a MARK of what it took, and windows a write creates as SEEN.LOAD (so
the replica's own module arguments do not matter)."""
import time

from keyspace import populate, snapshot
from servers import Server
from seen.redis import pack_ids


def wait_for_sync(replica, deadline=20):
    end = time.monotonic() + deadline
    while replica.info("replication").get("master_link_status") != "up":
        assert time.monotonic() < end, "the replica did not sync"
        time.sleep(0.05)


def test_replica_dumps_equal_the_primary_after_wait(tmp_path):
    primary = Server(tmp_path / "primary", module_args=["SECONDS", "600", "ITEMS", "50"])
    replica = Server(tmp_path / "replica", module_args=["COUNT", "100"],
                     extra=["--replicaof", "127.0.0.1", str(primary.port)])
    try:
        p, rp = primary.client(), replica.client()
        wait_for_sync(rp)
        populate(p, users=150)
        # Writes without NOW, over two clock seconds, that create time windows by default.
        for step in range(3):
            for u in range(20):
                p.execute_command("SEEN.MARKB", f"default:{u}", pack_ids([step * 100 + u]))
                p.execute_command("SEEN.TAKEB", f"default:{u}", 1, pack_ids([7, 8, 9]))
            time.sleep(0.6)
        assert p.wait(1, 10_000) == 1
        primary_keys, replica_keys = snapshot(p), snapshot(rp)
        assert len(primary_keys) == 150 + 20
        assert {k: d for k, (d, _) in replica_keys.items()} == \
            {k: d for k, (d, _) in primary_keys.items()}
        assert all(replica_keys[k][1] > 0 for k in primary_keys if k.startswith(b"exp:"))
    finally:
        replica.stop()
        primary.stop()
