"""The module driven by a Hypothesis state machine through redis-py against a real
redis-server, with the exact model of what each key must find (as
bindings/python/tests/test_state_machines.py does in process): MARK, MARKB, FILTER, FILTERB,
TAKE and TAKEB in batches of 1 to 10^4 ids, replays of marks already made (clients retry on
failover), a clock that stalls, goes back and jumps past the span, DEBUG RELOAD and DUMP and
RESTORE. An id within the effective span SEEN.INFO reports (count windows: among the last
`span` marks) is never reported unseen, and TAKE never returns one."""
import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from seen.redis import pack_ids, unpack_bitmap, unpack_ids
from servers import Server

SERVER = None
fresh = st.integers(min_value=1, max_value=2**64 - 1)


def setup_module():
    global SERVER
    SERVER = Server(Path(tempfile.mkdtemp(prefix="seen-redis-machine-")))


def teardown_module():
    SERVER.stop()


def spread(start_and_count):
    """count fresh ids from start, spread over the 64-bit range (cheap for Hypothesis to draw)."""
    start, count = start_and_count
    return [1 + (start + i * 0x9E3779B97F4A7C15) % (2**64 - 1) for i in range(count)]


def batches(known):
    item = st.one_of(fresh, st.sampled_from(known)) if known else fresh
    return st.one_of(st.lists(item, min_size=1, max_size=20), st.tuples(fresh, st.integers(200, 10000)).map(spread))


def info(r, key):
    reply = r.execute_command("SEEN.INFO", key)
    return {reply[i].decode(): reply[i + 1] for i in range(0, len(reply), 2)}


class RedisWindowMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.r = SERVER.client()
        self.r.flushall()
        self.now = 100000
        self.last = {}   # time windows: id -> latest NOW it was marked at
        self.marks = []  # count windows: every mark in order

    @initialize(shape=st.sampled_from(["count", "time", "time_tight"]))
    def reserve(self, shape):
        self.shape = shape
        if shape == "count":
            self.span = 300
            self.r.execute_command("SEEN.RESERVE", "w", "COUNT", self.span)
        else:
            self.span = 3600
            # ITEMS sizes the cap: 50 items cannot hold the batches below, so the tight
            # window gives up time, then rate, never an id.
            items = 50 if shape == "time_tight" else 20000
            self.r.execute_command("SEEN.RESERVE", "w", "SECONDS", self.span, "ITEMS", items)

    def must_find(self):
        if self.shape == "count":
            return list(dict.fromkeys(self.marks[-self.span:]))
        effective = int(info(self.r, "w")["effective_span"])
        return [i for i, t in self.last.items() if self.now - t <= effective]

    def record(self, ids):
        for i in ids:
            self.last[i] = max(self.last.get(i, self.now), self.now)
        self.marks.extend(ids)

    def kept_of(self, ids):
        return ids if self.shape != "count" else ids[-self.span:]

    def unseen(self, ids):
        if len(ids) > 20:
            bitmap = self.r.execute_command("SEEN.FILTERB", "w", "NOW", self.now, pack_ids(ids))
            return [i for i, u in zip(ids, unpack_bitmap(bitmap, len(ids))) if u]
        return [int(x) for x in self.r.execute_command("SEEN.FILTER", "w", "NOW", self.now, *ids)]

    @rule(data=st.data(), packed=st.booleans(), replays=st.integers(1, 3))
    def mark(self, data, packed, replays):
        ids = data.draw(batches(list(self.last)))
        for _ in range(replays):  # a retried command arrives again
            if packed:
                self.r.execute_command("SEEN.MARKB", "w", "NOW", self.now, pack_ids(ids))
            else:
                self.r.execute_command("SEEN.MARK", "w", "NOW", self.now, *ids)
            self.record(ids)
        assert not self.unseen(self.kept_of(ids)), "an id of the call just made reads unseen"

    @rule(data=st.data(), want=st.integers(1, 50), packed=st.booleans())
    def take(self, data, want, packed):
        shown = set(self.must_find())
        candidates = data.draw(batches(list(self.last)))
        if packed:
            taken = unpack_ids(self.r.execute_command("SEEN.TAKEB", "w", want, "NOW", self.now, pack_ids(candidates)))
        else:
            taken = [int(x) for x in self.r.execute_command("SEEN.TAKE", "w", want, "NOW", self.now, *candidates)]
        assert not shown.intersection(taken), "TAKE returned an id the window holds"
        assert len(taken) == len(set(taken)) <= want
        self.record(taken)

    @rule(step=st.sampled_from([0, 1, 7, -3, -20, 900, 5400]))
    def tick(self, step):
        self.now = max(0, self.now + step)

    @rule()
    def reload(self):
        assert self.r.execute_command("DEBUG", "RELOAD")

    @rule()
    def dump_and_restore(self):
        blob = self.r.dump("w")
        self.r.delete("w")
        self.r.restore("w", 0, blob)

    @invariant()
    def nothing_lost(self):
        must = self.must_find()
        if must:
            assert not self.unseen(must), "an id within the span reads unseen"


TestRedisWindows = RedisWindowMachine.TestCase
TestRedisWindows.settings = settings(max_examples=15, stateful_step_count=25, deadline=None)
