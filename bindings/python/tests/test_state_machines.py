"""Stateful property tests (Hypothesis state machines): every kind driven through random
sequences of adds and marks in batches of any size, replays, removes, clocks that stall, go
back and jump past the span, tiny and default caps, and round trips through bytes, pickle and
files, against an exact model of what must be found. Hypothesis shrinks a failing sequence to
the shortest one. The long runs of the same idea are tests/test_model_*.cc (10^6 operations
per kind) and bench/stress."""
import dataclasses
import os
import pickle
import tempfile

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import seen

KEY = bytes(range(16))
SETTINGS = settings(max_examples=30, stateful_step_count=40, deadline=None)
fresh = st.integers(min_value=0, max_value=2**64 - 1)


def spread(start_and_count):
    """count fresh ids from start, spread over the 64-bit range (cheap to draw: a batch of
    10^4 drawn item by item would take Hypothesis most of a second)."""
    start, count = start_and_count
    return [(start + i * 0x9E3779B97F4A7C15) % 2**64 for i in range(count)]


def batches(known):
    """Lists of 1 to 10^4 items: fresh ones, and ones added before (replays)."""
    item = st.one_of(fresh, st.sampled_from(known)) if known else fresh
    return st.one_of(st.lists(item, min_size=1, max_size=20),
                     st.tuples(fresh, st.integers(500, 10000)).map(spread))


class FilterMachine(RuleBasedStateMachine):
    """Bloom, counting and scalable filters, keyed or not: an added key (for a counting filter,
    added more often than removed) is always found."""

    def __init__(self):
        super().__init__()
        self.counts = {}

    @initialize(kind=st.sampled_from(["bloom", "counting", "scalable"]), keyed=st.booleans())
    def create(self, kind, keyed):
        self.kind, self.key = kind, KEY if keyed else None
        if kind == "bloom":
            self.f = seen.BloomFilter(5000, 0.01, key=self.key) if keyed else seen.BloomFilter(5000, 0.01)
        elif kind == "counting":
            self.f = seen.CountingFilter(5000, 0.01, key=self.key) if keyed else seen.CountingFilter(5000, 0.01)
        else:
            self.f = seen.ScalableFilter(100, 0.01, key=self.key) if keyed else seen.ScalableFilter(100, 0.01)

    def must_find(self):
        return [k for k, n in self.counts.items() if n > 0]

    @rule(data=st.data())
    def add(self, data):
        keys = data.draw(batches(list(self.counts)))
        if len(keys) == 1:
            self.f.add(keys[0])
        else:
            self.f.add_many(keys)
        for k in keys:
            self.counts[k] = self.counts.get(k, 0) + 1

    @precondition(lambda self: self.kind == "counting" and any(n > 0 for n in self.counts.values()))
    @rule(data=st.data())
    def remove(self, data):
        k = data.draw(st.sampled_from(self.must_find()))
        self.f.remove(k)
        self.counts[k] -= 1

    @rule(how=st.sampled_from(["bytes", "pickle"]))
    def round_trip(self, how):
        if how == "pickle" and not self.key:  # a keyed filter refuses to pickle: its key would travel
            self.f = pickle.loads(pickle.dumps(self.f))
        else:
            cls = type(self.f)
            self.f = cls.from_bytes(self.f.to_bytes(), key=self.key) if self.key else cls.from_bytes(self.f.to_bytes())

    @rule(read_only=st.booleans())
    def save_and_open(self, read_only):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "f.seen")
            self.f.save(path)
            cls = type(self.f)
            opened = cls.open(path, read_only=True, key=self.key) if self.key else cls.open(path, read_only=True)
            assert all(opened.contains_many(self.must_find())) if self.must_find() else True
            opened.close()
            self.f = cls.from_bytes(open(path, "rb").read(), key=self.key) if self.key else cls.from_bytes(open(path, "rb").read())

    @invariant()
    def nothing_lost(self):
        must = self.must_find()
        if must:
            assert all(self.f.contains_many(must)), "a key added was lost"


class WindowMachine(RuleBasedStateMachine):
    """Windows of every layout: an item within the effective span the window reports (count
    windows: among the last `span` marks) is always found, and the items of the call just
    made are found at once."""

    def __init__(self):
        super().__init__()
        self.last = {}       # time windows: item -> the latest clock it was marked at
        self.marks = []      # count windows: every mark, in order
        self.now = 100000

    @initialize(shape=st.sampled_from(["ring", "packed", "sliced", "table", "table_tiny", "growing", "growing_tiny"]),
                keyed=st.booleans())
    def create(self, shape, keyed):
        key = KEY if keyed else None
        specs = {
            "ring": seen.WindowSpec.last_items(50),
            "packed": seen.WindowSpec.last_items(500),
            "sliced": seen.WindowSpec.last_items(3000),
            "table": seen.WindowSpec.last_seconds(3600, 100),
            "table_tiny": seen.WindowSpec.last_seconds(3600, 100, max_bytes=4096),
            "growing": seen.WindowSpec.last_seconds(3600, 100, fpr=0.0001),
            "growing_tiny": seen.WindowSpec.last_seconds(3600, 100, fpr=0.0001, max_bytes=20000),
        }
        spec = specs[shape]
        if key:
            spec = dataclasses.replace(spec, key=key)
        self.key, self.spec = key, spec
        self.w = seen.Window(spec, now=self.now)

    def must_find(self):
        if self.spec.mode == "count":
            return list(self.marks[-self.spec.span:])
        effective = self.w.usage(self.now).effective_span
        return [i for i, t in self.last.items() if self.now - t <= effective]

    @rule(data=st.data())
    def mark(self, data):
        items = data.draw(batches(list(self.last) or self.marks[-50:]))
        if len(items) == 1:
            self.w.add(items[0], now=self.now)
        else:
            self.w.add_many(items, now=self.now)
        for i in items:
            self.last[i] = max(self.last.get(i, self.now), self.now)
        self.marks.extend(items)
        kept = items if self.spec.mode == "time" else items[-self.spec.span:]
        assert all(self.w.contains_many(kept, now=self.now)), "an item of the call just made was lost"

    @rule(step=st.sampled_from([0, 1, 3, -2, -9, 360, 900, 5400]))
    def tick(self, step):
        self.now = max(0, self.now + step)

    @rule()
    def round_trip(self):
        self.w = seen.Window.from_bytes(self.w.to_bytes(), key=self.key) if self.key else pickle.loads(pickle.dumps(self.w))

    @invariant()
    def nothing_lost(self):
        must = self.must_find()
        if must:
            assert all(self.w.contains_many(must, now=self.now)), "an item within the effective span was lost"

    @invariant()
    def the_report_says_what_was_given_up(self):
        usage = self.w.usage(self.now)
        assert usage.span_limited == (usage.effective_span < self.spec.span)
        assert usage.over_target == (usage.predicted_fpr > self.spec.fpr)


class StoreMachine(RuleBasedStateMachine):
    """A store of a few users with capped time windows: marks, takes and filters at a moving
    clock, saves and opens."""

    def __init__(self):
        super().__init__()
        self.last = {}
        self.now = 100000
        self.s = seen.ExposureStore(seen.WindowSpec.last_seconds(3600, 50, max_bytes=2048), idle_timeout=None)

    def must_find(self, user):
        usage = self.s.user_usage(user, self.now)
        if usage is None:
            return []
        return [i for i, t in self.last.get(user, {}).items() if self.now - t <= usage.effective_span]

    @rule(user=st.integers(0, 3), data=st.data())
    def mark(self, user, data):
        items = data.draw(batches(list(self.last.get(user, {}))))
        self.s.mark(user, items, self.now)
        for i in items:
            self.last.setdefault(user, {})[i] = self.now
        assert not any(self.s.filter(user, items, self.now)), "an item of the call just made was lost"

    @rule(user=st.integers(0, 3), data=st.data(), want=st.integers(1, 30))
    def take(self, user, data, want):
        shown = set(self.must_find(user))
        candidates = data.draw(batches(list(self.last.get(user, {}))))
        taken = list(self.s.take(user, candidates, want, self.now))
        assert not shown.intersection(taken), "took an item the user was shown"
        for i in taken:
            self.last.setdefault(user, {})[i] = self.now

    @rule(step=st.sampled_from([0, 1, 5, -3, 900, 5400]))
    def tick(self, step):
        self.now = max(0, self.now + step)

    @rule()
    def save_and_open(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.seen")
            self.s.save(path)
            self.s = seen.ExposureStore.open(path, read_only=False)

    @invariant()
    def nothing_lost(self):
        for user in range(4):
            must = self.must_find(user)
            if must:
                assert not any(self.s.filter(user, must, self.now)), "user %d lost an item" % user


TestFilters = FilterMachine.TestCase
TestFilters.settings = SETTINGS
TestWindows = WindowMachine.TestCase
TestWindows.settings = SETTINGS
TestStores = StoreMachine.TestCase
TestStores.settings = SETTINGS
