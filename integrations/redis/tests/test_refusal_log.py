"""A window refused on RESTORE or SEEN.LOAD is logged with its reason, at most one line a
second however many come, and INFO seen counts every refusal."""
import time

import pytest
import redis

import seen
from test_bad_input import with_crc

REFUSED = "seen: refused a window"
LOAD_REFUSED = "seen: SEEN.LOAD refused a window"


def damaged(blob: bytes) -> bytes:
    """The window's bytes with one bit of its payload flipped (its checksum then disagrees)."""
    at = len(blob) // 2
    return blob[:at] + bytes([blob[at] ^ 1]) + blob[at + 1:]


def reason_for(r, blob: bytes) -> str:
    """What SEEN.LOAD says is wrong with blob."""
    with pytest.raises(redis.ResponseError) as refused:
        r.execute_command("SEEN.LOAD", "probe", blob)
    return str(refused.value).removeprefix("seen: ")


def lines_with(server, text):
    return [line for line in server.log().splitlines() if text in line]


def wait_out_the_last_line():
    time.sleep(1.1)


def test_a_burst_of_bad_restores_logs_a_line_a_second_with_the_reason(r, server):
    window = seen.Window.last_items(100)
    window.add_many(range(50))
    blob = window.to_bytes()
    r.execute_command("SEEN.LOAD", "good", blob)
    body = r.dump("good")[:-8]
    assert body.count(blob) == 1  # uncompressed: the window's bytes as they are
    bad = with_crc(body.replace(blob, damaged(blob)))
    reason = reason_for(r, damaged(blob))
    wait_out_the_last_line()
    logged_before = len(lines_with(server, REFUSED))
    refused_before = r.info("seen")["seen_refused_windows"]
    started = time.monotonic()
    pipe = r.pipeline(transaction=False)
    for n in range(2000):
        pipe.restore(f"bad:{n}", 0, bad)
    replies = pipe.execute(raise_on_error=False)
    elapsed = time.monotonic() - started
    assert all(isinstance(reply, redis.ResponseError) for reply in replies)
    lines = lines_with(server, REFUSED)[logged_before:]
    assert 1 <= len(lines) <= elapsed + 2, lines[:5]
    assert reason in lines[0], (reason, lines[0])
    assert r.info("seen")["seen_refused_windows"] - refused_before == 2000
    if len(lines) > 1:  # a later line says how many went unlogged before it
        assert "more refused since the last such line" in lines[1]


def test_a_bad_seen_load_logs_its_reason(r, server):
    wait_out_the_last_line()
    blob = damaged(seen.Window.last_items(10).to_bytes())
    logged_before = len(lines_with(server, LOAD_REFUSED))
    reason = reason_for(r, blob)
    lines = lines_with(server, LOAD_REFUSED)[logged_before:]
    assert len(lines) == 1 and reason in lines[0], (reason, lines)
