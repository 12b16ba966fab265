"""A module loaded with KEYFILE hashes every window under the key: its windows answer as
usual, survive a save and restart with the same key, never hold the key's bytes, and their
bytes are refused by a server without the key. A key file of the wrong size stops the load,
saying why."""
import os

import pytest

from servers import Server
from seen.redis import pack_ids

KEY = bytes(range(7, 39))  # 32 secret bytes


def key_file(tmp_path, data=KEY):
    path = tmp_path / "seen.key"
    path.write_bytes(data)
    os.chmod(path, 0o600)
    return str(path)


def test_keyed_windows_answer_persist_and_stay_with_their_key(tmp_path):
    keyed = Server(tmp_path / "keyed", module_args=["KEYFILE", key_file(tmp_path)])
    plain = Server(tmp_path / "plain")
    try:
        r = keyed.client()
        shown = list(range(1, 301))
        r.execute_command("SEEN.MARKB", "u:1", pack_ids(shown))
        unseen = r.execute_command("SEEN.FILTER", "u:1", *shown, 10**9)
        assert [int(x) for x in unseen] == [10**9], "every shown id is seen, a new one is not"
        dump = r.dump("u:1")
        assert KEY not in dump and KEY[:16] not in dump, "the key is nowhere in the value"
        # Another server, without the key, refuses the bytes rather than misreading them.
        with pytest.raises(Exception):
            plain.client().restore("u:1", 0, dump)
        assert r.save()
        keyed.restart()
        again = keyed.client().execute_command("SEEN.FILTER", "u:1", *shown, 10**9)
        assert [int(x) for x in again] == [10**9], "the reloaded window answers the same"
    finally:
        keyed.stop()
        plain.stop()


def test_a_key_file_of_the_wrong_size_stops_the_load(tmp_path):
    with pytest.raises(RuntimeError, match="16 to 64 secret bytes"):
        Server(tmp_path / "short", module_args=["KEYFILE", key_file(tmp_path, b"too short")])
