"""A module-loaded redis-server per test module, flushed before each test."""
import pytest

from servers import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("redis"))
    yield s
    s.stop()


@pytest.fixture
def r(server):
    client = server.client()
    client.flushall()
    return client
