"""Redis Cluster: 3 primaries and 3 replicas made by redis-cli --cluster create, driven by
redis-py's cluster client. After a CLUSTER FAILOVER of one primary, no acknowledged mark is
lost."""
import random
import socket
import subprocess
import time

import pytest
from redis.cluster import RedisCluster

from servers import Server
from seen.redis import RedisWindows


def cluster_ports(n):
    """n ports whose cluster bus ports (port + 10000) are free too, both below the ephemeral
    range: a port from it was free when checked and then taken by some connection's local
    end before the node bound its bus ("Address already in use")."""
    try:
        ephemeral = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral = 32768
    # Where the ephemeral range starts too low to leave room, any port: the race stays.
    high = ephemeral - 10000 if ephemeral > 20000 else 55535
    rng = random.Random()
    ports = []
    while len(ports) < n:
        port = rng.randrange(10000, high)
        if port in ports:
            continue
        try:
            for p in (port, port + 10000):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        ports.append(port)
    return ports


def wait_until(predicate, what, deadline=60):
    end = time.monotonic() + deadline
    while not predicate():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.1)


@pytest.fixture
def nodes(tmp_path):
    servers = []
    try:
        for port in cluster_ports(6):
            servers.append(Server(tmp_path / str(port), port=port, extra=[
                "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", "2000", "--appendonly", "yes"]))
        subprocess.run(["redis-cli", "--cluster", "create",
                        *[f"127.0.0.1:{s.port}" for s in servers],
                        "--cluster-replicas", "1", "--cluster-yes"],
                       check=True, capture_output=True, timeout=60)
        for s in servers:
            wait_until(lambda: s.client().cluster("info")["cluster_state"] == "ok",
                       f"cluster state on {s.port}")
        yield servers
    finally:
        for s in servers:
            s.stop()


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
