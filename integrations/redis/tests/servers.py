"""redis-server processes for the tests: Debian's redis-server with the module loaded, on a
free 127.0.0.1 port, in a temporary directory, stopped by the test that started it; and
Redis Clusters of them (start_cluster)."""
import contextlib
import os
import random
import socket
import subprocess
import time
from pathlib import Path
from typing import List, Optional

import redis

MODULE = os.path.abspath(os.environ.get("SEEN_REDIS_MODULE", ""))
REDIS_SERVER = "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One redis-server; restart() keeps its port, directory and persistence files."""

    def __init__(self, directory: Path, module_args: Optional[List[str]] = None,
                 extra: Optional[List[str]] = None, port: Optional[int] = None,
                 module: str = MODULE, wrapper: Optional[List[str]] = None) -> None:
        """module: the seen.so to load; wrapper: a command that runs redis-server (exec)."""
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.module_args = module_args or []
        self.extra = extra or []
        self.module = module
        self.wrapper = wrapper or []
        self.proc: Optional[subprocess.Popen] = None
        self.start()

    def command_line(self) -> List[str]:
        return [*self.wrapper, REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1",
                "--dir", str(self.dir), "--save", "", "--enable-debug-command", "yes",
                # Uncompressed RDB strings: a DUMP then holds a window's serialized form as is.
                "--rdbcompression", "no",
                "--logfile", str(self.dir / "redis.log"),
                "--loadmodule", self.module, *self.module_args, *self.extra]

    def start(self) -> None:
        self.proc = subprocess.Popen(self.command_line(), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                if self.client().ping():
                    return
            except (redis.ConnectionError, redis.BusyLoadingError):
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server on port {self.port} did not start: "
                                   + self.log()[-2000:])
            time.sleep(0.05)

    def client(self, **kwargs) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=30, **kwargs)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log(self) -> str:
        path = self.dir / "redis.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: a clean shutdown (and a save, if configured)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


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


@contextlib.contextmanager
def start_cluster(directory: Path, primaries: int, replicas: int = 0,
                  extra: Optional[List[str]] = None, **server_args):
    """primaries * (1 + replicas) nodes made one Redis Cluster by redis-cli --cluster create,
    each node's cluster state ok; every node is stopped on the way out."""
    servers: List[Server] = []
    try:
        for port in cluster_ports(primaries * (1 + replicas)):
            servers.append(Server(directory / str(port), port=port, extra=[
                "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                *(extra or [])], **server_args))
        subprocess.run(["redis-cli", "--cluster", "create",
                        *[f"127.0.0.1:{s.port}" for s in servers],
                        "--cluster-replicas", str(replicas), "--cluster-yes"],
                       check=True, capture_output=True, timeout=60)
        for s in servers:
            wait_until(lambda: s.client().cluster("info")["cluster_state"] == "ok",
                       f"cluster state on {s.port}")
        yield servers
    finally:
        for s in servers:
            s.stop()
