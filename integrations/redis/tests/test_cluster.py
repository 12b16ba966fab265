"""Redis Cluster: 3 primaries and 3 replicas made by redis-cli --cluster create, driven by
redis-py's cluster client. After a CLUSTER FAILOVER of one primary, no acknowledged mark is
lost."""
import pytest
from redis.cluster import RedisCluster

from servers import start_cluster, wait_until
from seen.redis import RedisWindows


@pytest.fixture
def nodes(tmp_path):
    with start_cluster(tmp_path, 3, replicas=1,
                       extra=["--cluster-node-timeout", "2000", "--appendonly", "yes"]) as servers:
        yield servers


def test_failover_loses_no_acknowledged_mark(nodes):
    cluster = RedisCluster(host="127.0.0.1", port=nodes[0].port)
    windows = RedisWindows(cluster)
    acknowledged = {}
    for user in range(300):
        ids = [user * 1000 + i for i in range(10)]
        windows.mark(f"exp:{{{user}}}", ids)  # one key per user: no CROSSSLOT
        acknowledged[user] = ids
    # Promote the replica of the primary that holds user 0's slot.
    slot = cluster.keyslot("exp:{0}")
    primary = cluster.get_node_from_key("exp:{0}")
    replica = next(s for s in nodes
                   if s.client().info("replication")["role"] == "slave"
                   and s.client().info("replication")["master_port"] == primary.port)
    # A manual failover needs the replica's link up; it is retried if the handshake times out.
    wait_until(lambda: replica.client().info("replication")["master_link_status"] == "up",
               "the replica's link")
    for attempt in range(3):
        replica.client().execute_command("CLUSTER", "FAILOVER")
        try:
            wait_until(lambda: replica.client().info("replication")["role"] == "master",
                       "failover", deadline=15)
            break
        except AssertionError:
            if attempt == 2:
                raise
    wait_until(lambda: all(s.client().cluster("info")["cluster_state"] == "ok" for s in nodes),
               "cluster state after failover")
    # Marks after the failover reach the new primary through the client's redirects.
    for user in range(300, 400):
        ids = [user * 1000 + i for i in range(10)]
        windows.mark(f"exp:{{{user}}}", ids)
        acknowledged[user] = ids
    fresh = RedisWindows(RedisCluster(host="127.0.0.1", port=replica.port))
    for user, ids in acknowledged.items():
        assert fresh.filter(f"exp:{{{user}}}", ids) == [], f"user {user} lost marks"
    owner = fresh.client.get_node_from_key("exp:{0}")
    assert owner.port == replica.port and fresh.client.keyslot("exp:{0}") == slot
