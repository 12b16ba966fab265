"""redis-server processes for the tests: Debian's redis-server with the module loaded, on a
free 127.0.0.1 port, in a temporary directory, stopped by the test that started it."""
import os
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
