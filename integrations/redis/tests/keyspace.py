"""Whole-keyspace snapshots, and a keyspace of windows of every kind to take them of."""
from seen.redis import pack_ids


def snapshot(client):
    """{key: (DUMP bytes, TTL in seconds)} of every key."""
    return {key: (client.dump(key), client.ttl(key)) for key in client.scan_iter(count=1000)}


def assert_same_windows(before, after, ttl_slack=30):
    assert after.keys() == before.keys()
    for key, (dump, ttl) in before.items():
        assert after[key][0] == dump, key
        if ttl < 0:
            assert after[key][1] == ttl, key
        else:
            assert ttl - ttl_slack <= after[key][1] <= ttl, key


def populate(client, users=200):
    """Count windows made by MARK, reserved count and time windows, TAKE, TTLs."""
    pipe = client.pipeline(transaction=False)
    for u in range(users):
        key = f"exp:{{{u}}}"
        if u % 3 == 0:
            pipe.execute_command("SEEN.RESERVE", key, "SECONDS", 3600, "ITEMS", 100, "SEED", u)
        elif u % 3 == 1:
            pipe.execute_command("SEEN.RESERVE", key, "COUNT", 50, "FPR", 0.001)
        pipe.execute_command("SEEN.MARKB", key, "TTL", 10_000 + u, pack_ids(range(u, u + 40)))
        pipe.execute_command("SEEN.MARK", key, f"item-{u}", str(u * 7))
        pipe.execute_command("SEEN.TAKE", key, 2, *[str(i) for i in range(u + 30, u + 50)])
    pipe.execute()
