"""The exposure store: filter, mark and take; takes from many threads; idle expiry; the memory
bound; save and open, corrupt files and the read-only role; misuse."""
import threading
from array import array
from collections import deque

import numpy
import pytest

import seen
from seen import _batches
from refusals import MUTATIONS, assert_each_raises
from together import run_together

HOUR = 3600


def u64(values):
    return numpy.array(values, dtype=numpy.uint64)


def store(**options):
    options.setdefault("window", seen.WindowSpec.last_items(500, fpr=0.01, seed=1))
    options.setdefault("expected_users", 1024)
    return seen.ExposureStore(**options)


# --- filter, mark, take ------------------------------------------------------------------


def test_a_user_the_store_never_saw_has_seen_nothing():
    s = store()
    unseen = s.filter(42, u64(range(1000)), now=0)
    assert unseen.dtype == numpy.bool_ and unseen.all() and len(unseen) == 1000
    assert len(s) == 0  # filtering creates no user


def test_mark_then_filter():
    s = store()
    s.mark(7, u64([10, 20, 30]), now=100)
    assert list(s.filter(7, [10, 11, 20, 31, 30], now=100)) == [False, True, False, True, False]
    assert s.filter(8, [10, 20], now=100).all()  # users are apart
    assert len(s) == 1 and s.stats.users == 1


@pytest.mark.parametrize("make", [u64, lambda xs: array("Q", xs), list, tuple, iter],
                         ids=["numpy", "array", "list", "tuple", "iterator"])
def test_every_id_batch_form(make):
    s = store()
    s.mark(1, make(range(0, 100, 2)), now=0)
    assert list(s.filter(1, make(range(100)), now=0)) == [i % 2 == 1 for i in range(100)]
    assert list(s.take(1, make(range(10)), 3, now=0)) == [1, 3, 5]


def test_a_store_keeps_each_users_span():
    s = store()
    stream = numpy.arange(5_000, dtype=numpy.uint64) * numpy.uint64(2654435761)
    last = deque(maxlen=500)
    for chunk in numpy.array_split(stream, 37):
        s.mark(3, chunk, now=0)
        last.extend(chunk.tolist())
        assert not s.filter(3, list(last), now=0).any()
    never = numpy.arange(10**12, 10**12 + 20_000, dtype=numpy.uint64)
    assert s.filter(3, never, now=0).mean() >= 1 - 1.5 * s.window.predicted_fpr


def test_take_picks_unseen_candidates_in_order_and_marks_them():
    s = store()
    s.mark(5, [2, 4], now=0)
    page = s.take(5, u64([1, 2, 3, 4, 5, 6, 7]), 3, now=0)
    assert page.dtype == numpy.uint64 and list(page) == [1, 3, 5]
    assert list(s.take(5, u64([1, 2, 3, 4, 5, 6, 7]), 10, now=0)) == [6, 7]
    assert len(s.take(5, u64([1, 2, 3]), 10, now=0)) == 0
    assert not s.filter(5, u64(range(1, 8)), now=0).any()


def test_take_returns_a_candidate_listed_twice_once():
    s = store()
    assert list(s.take(1, [9, 9, 8, 9, 8, 7], 10, now=0)) == [9, 8, 7]


def test_take_of_nothing():
    s = store()
    assert len(s.take(1, [1, 2], 0, now=0)) == 0
    assert len(s.take(1, [], 5, now=0)) == 0
    assert s.filter(1, [1, 2], now=0).all()


def test_without_numpy_results_are_a_bytearray_and_a_list(monkeypatch):
    monkeypatch.setattr(_batches, "numpy", None)
    s = store()
    s.mark(1, [1], now=0)
    assert s.filter(1, [1, 2], now=0) == bytearray(b"\x00\x01")
    assert s.take(1, [1, 2, 3], 5, now=0) == [2, 3]


def test_a_store_of_time_windows():
    s = store(window=seen.WindowSpec.last_seconds(HOUR, expected_items=100), idle_timeout=None)
    assert s.window.mode == "time" and s.window.span >= HOUR
    s.mark(1, [10], now=10_000)
    s.mark(1, [20], now=10_000 + HOUR // 2)
    assert list(s.filter(1, [10, 20], now=10_000 + HOUR - 1)) == [False, False]
    later = 10_000 + HOUR // 2 + 3 * HOUR
    assert list(s.filter(1, [10, 20], now=later)) == [True, True]


def test_concurrent_takes_never_share_an_item():
    s = store(window=seen.WindowSpec.last_items(20_000, fpr=0.001))
    candidates = u64(range(1, 20_001))
    pages = {t: [] for t in range(4)}
    start = threading.Barrier(4)

    def feed(t):
        start.wait()
        for _ in range(60):
            pages[t].append(s.take(77, candidates, 50, now=0))

    run_together(feed, range(4))
    taken = numpy.concatenate([p for t in pages for p in pages[t]])
    assert len(taken) == 4 * 60 * 50
    assert len(numpy.unique(taken)) == len(taken)
    assert not s.filter(77, taken, now=0).any()
    # Each page is in candidate order.
    assert all((numpy.diff(p.astype(numpy.int64)) > 0).all() for t in pages for p in pages[t])


def test_threads_marking_different_users_lose_nothing():
    s = store(expected_users=4096)
    start = threading.Barrier(4)

    def work(t):
        start.wait()
        for user in range(t, 2000, 4):
            s.mark(user, [user * 10, user * 10 + 1], now=0)

    run_together(work, range(4))
    assert len(s) == 2000
    assert not any(s.filter(user, [user * 10, user * 10 + 1], now=0).any() for user in range(2000))


# --- idle expiry and the memory bound ----------------------------------------------------


def test_idle_users_expire():
    s = store(idle_timeout=HOUR)
    s.mark(1, [100], now=0)
    s.mark(2, [200], now=3 * HOUR)
    assert s.expire(now=3 * HOUR) == 1  # user 1 idle for 3 hours
    assert (len(s), s.stats.expirations) == (1, 1)
    assert s.filter(1, [100], now=3 * HOUR).all()
    assert not s.filter(2, [200], now=3 * HOUR).any()
    assert s.expire(now=3 * HOUR + 10) == 0


def test_an_idle_user_has_seen_nothing_even_before_expire():
    s = store(idle_timeout=HOUR)
    s.mark(1, [100], now=0)
    assert not s.filter(1, [100], now=HOUR // 2).any()
    assert s.filter(1, [100], now=5 * HOUR).all()
    s.mark(1, [101], now=5 * HOUR)  # comes back with a fresh window
    assert list(s.filter(1, [100, 101], now=5 * HOUR)) == [True, False]


def test_the_default_idle_timeout_is_a_day_and_none_is_never():
    day = store()
    never = store(idle_timeout=None)
    for s in (day, never):
        s.mark(1, [1], now=0)
    assert day.expire(now=23 * HOUR) == 0 and day.expire(now=30 * HOUR) == 1
    assert never.expire(now=2**32 - 1) == 0 and not never.filter(1, [1], now=2**32 - 1).any()


def test_the_memory_bound_evicts_the_least_recently_active():
    window = seen.WindowSpec.last_items(100, fpr=0.01)
    probe = store(window=window, expected_users=64)
    base = probe.stats.bytes
    per_user = probe.window.state_bytes + 16
    bound = base + 1000 * per_user
    s = store(window=window, max_bytes=bound, expected_users=64)
    for user in range(4000):  # a new hour every 100 users
        s.mark(user, [user], now=(user // 100) * HOUR)
        assert not s.filter(user, [user], now=(user // 100) * HOUR).any()  # never the writer
    stats = s.stats
    assert stats.evictions > 0 and stats.users + stats.evictions == 4000
    assert stats.bytes <= bound and stats.users >= 500
    now = 39 * HOUR
    kept = [not s.filter(user, [user], now=now).any() for user in range(4000)]
    recent, oldest = kept[-200:], kept[:1000]
    assert sum(recent) >= 0.95 * len(recent)
    assert sum(oldest) <= 0.05 * len(oldest)


# --- files -------------------------------------------------------------------------------


@pytest.fixture
def filled():
    s = store(idle_timeout=2 * HOUR)
    for user in range(300):
        s.mark(user, u64(range(user, user + 50)), now=1000)
    return s


def same_answers(a, b, now=1000):
    return all((a.filter(user, u64(range(400)), now) == b.filter(user, u64(range(400)), now)).all()
               for user in range(0, 310, 7))


def test_save_and_open_round_trip(filled, tmp_path):
    path = tmp_path / "store.seen"
    filled.save(path)
    with seen.ExposureStore.open(path) as opened:
        assert opened.read_only and not filled.read_only
        assert opened.stats.users == 300 and opened.window == filled.window
        assert same_answers(filled, opened)
    with seen.ExposureStore.open(str(path), verify=False) as fast:
        assert same_answers(filled, fast)


def test_a_read_only_store_refuses_writes(filled, tmp_path):
    path = tmp_path / "store.seen"
    filled.save(path)
    with seen.ExposureStore.open(path, read_only=True) as opened:
        assert_each_raises(seen.ReadOnlyError, [
            lambda: opened.mark(1, [1], now=1000), lambda: opened.take(1, [999], 1, now=1000),
            lambda: opened.expire(now=10**6)], match="read-only")
        assert same_answers(filled, opened)
        assert "read-only" in repr(opened)


def test_a_writable_open_keeps_changes_until_the_next_save(filled, tmp_path):
    path, copy = tmp_path / "store.seen", tmp_path / "copy.seen"
    filled.save(path)
    before = path.read_bytes()
    with seen.ExposureStore.open(path, read_only=False) as opened:
        assert not opened.read_only
        opened.mark(1000, [5], now=1000)
        assert list(opened.take(0, u64([0, 999]), 5, now=1000)) == [999]
        assert opened.expire(now=1000 + 3 * HOUR) == 301  # two hours idle: everyone goes
        opened.mark(1001, [6], now=1000 + 3 * HOUR)
        opened.save(copy)
    assert path.read_bytes() == before  # never written in place
    with seen.ExposureStore.open(copy) as reopened:
        assert len(reopened) == 1 and not reopened.filter(1001, [6], now=1000 + 3 * HOUR).any()


def test_saving_over_a_store_replaces_it(filled, tmp_path):
    path = tmp_path / "store.seen"
    store().save(path)
    filled.save(path)
    with seen.ExposureStore.open(path) as opened:
        assert len(opened) == 300


def test_a_failed_save_leaves_no_file(filled, tmp_path):
    with pytest.raises(seen.SeenIOError):
        filled.save(tmp_path / "missing" / "store.seen")
    (tmp_path / "dir.seen").mkdir()
    with pytest.raises(seen.SeenIOError):
        filled.save(tmp_path / "dir.seen")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.seen"]


@pytest.fixture
def saved(filled, tmp_path):
    path = tmp_path / "store.seen"
    filled.save(path)
    return path.read_bytes()


@pytest.mark.parametrize("mutate, error", MUTATIONS + [
    (lambda d: d[:64], seen.TruncatedError),
    (lambda d: seen.BloomFilter(100, 0.01).to_bytes(), seen.WrongKindError),
    (lambda d: seen.Window.last_items(10).to_bytes(), seen.WrongKindError),
])
def test_corrupt_files_raise_their_own_error(saved, tmp_path, mutate, error):
    path = tmp_path / "corrupt.seen"
    path.write_bytes(mutate(saved))
    for read_only in (True, False):
        with pytest.raises(error) as raised:
            seen.ExposureStore.open(path, read_only=read_only)
        assert isinstance(raised.value, seen.FormatError)


def test_a_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(seen.SeenIOError) as raised:
        seen.ExposureStore.open(tmp_path / "missing.seen")
    assert isinstance(raised.value, OSError) and "missing.seen" in str(raised.value)


def test_an_unverified_open_of_a_corrupt_payload_never_crashes(saved, tmp_path):
    path = tmp_path / "corrupt.seen"
    changed = bytearray(saved)
    for offset in range(len(saved) // 2, len(saved), 97):
        changed[offset] ^= 0xFF
    path.write_bytes(bytes(changed))
    with pytest.raises(seen.BadChecksumError):
        seen.ExposureStore.open(path)
    with seen.ExposureStore.open(path, verify=False) as opened:
        for user in range(300):
            try:
                opened.filter(user, u64(range(60)), now=1000)
            except seen.InconsistentError as e:
                assert "corrupt" in str(e)


# --- misuse ------------------------------------------------------------------------------


@pytest.mark.parametrize("options, detail", [
    ({"idle_timeout": 0}, "idle_timeout"),
    ({"idle_timeout": 2**32 - 1}, "idle_timeout"),
    ({"max_bytes": 0}, "max_bytes"),
    ({"expected_users": 0}, "expected_users"),
    ({"window": seen.WindowSpec.last_items(500, fpr=2.0)}, "fpr"),
])
def test_bad_options_are_invalid_arguments(options, detail):
    with pytest.raises(seen.InvalidArgumentError, match=detail):
        store(**options)


@pytest.mark.parametrize("window", [500, seen.Window.last_items(500)], ids=["int", "Window"])
def test_the_window_option_is_a_spec(window):
    with pytest.raises(TypeError, match="WindowSpec"):
        store(window=window)


def test_bad_calls():
    s = store()
    with pytest.raises(TypeError, match="u64"):
        s.mark(1, ["a", "b"], now=0)
    with pytest.raises(TypeError, match="uint64"):
        s.filter(1, numpy.arange(3), now=0)
    with pytest.raises(OverflowError):
        s.mark(-1, [1], now=0)
    with pytest.raises(seen.InvalidArgumentError, match="want"):
        s.take(1, [1], -1, now=0)
    with pytest.raises(seen.InvalidArgumentError, match="2\\^32"):
        s.mark(1, [1], now=2**32)
    with pytest.raises(TypeError):
        s.filter(1, [1])  # type: ignore[call-arg]


def test_with_closes_and_a_closed_store_refuses_every_call(filled, tmp_path):
    with filled as s:
        assert len(s) == 300
    assert repr(s) == "<closed ExposureStore>"
    s.close()
    assert_each_raises(seen.InvalidArgumentError, [
        lambda: s.filter(1, [1], 0), lambda: s.mark(1, [1], 0), lambda: s.take(1, [1], 1, 0),
        lambda: s.expire(0), lambda: s.stats, lambda: s.window,
        lambda: s.save(tmp_path / "never")], match="NULL")


def test_a_store_is_not_pickled(filled):
    import pickle
    with pytest.raises(TypeError, match="save"):
        pickle.dumps(filled)


def test_heavy_users_windows_grow_and_keep_the_rate():
    """A month's window expecting 100 items: 20 users mark 5 in a day, 2 users mark 2,000.
    The heavy users' windows grow; their measured rate on 5,000 items they were never shown
    stays near 1% (within 3 standard deviations: 1.4%), and no one is above target or
    span-limited."""
    day = 86400
    s = store(window=seen.WindowSpec.last_seconds(30 * day, expected_items=100), idle_timeout=None)
    for user in range(22):
        n = 5 if user < 20 else 2000
        s.mark(user, [user * 1_000_003 + i for i in range(n)], now=day)
    sat = s.saturation(now=2 * day)
    assert (sat.users, sat.users_above_target, sat.users_span_limited) == (22, 0, 0)
    assert 0 < sat.mean_fill <= 1 and sat.max_predicted_fpr <= 0.011
    assert (s.stats.users_grown, s.stats.span_drops) == (2, 0)
    fresh = [0x9E3779B97F4A7C15 * (i + 1) % 2**64 for i in range(5000)]
    heavy_seen = 1 - numpy.mean(s.filter(21, fresh, now=2 * day))
    assert heavy_seen < 0.014
    heavy, light = s.user_usage(21, now=2 * day), s.user_usage(3, now=2 * day)
    assert heavy.bytes > light.bytes == s.window.state_bytes
    assert heavy.effective_span == light.effective_span == s.window.span
    assert s.user_usage(999, now=2 * day) is None


def test_capped_heavy_users_are_span_limited():
    day = 86400
    spec = seen.WindowSpec.last_seconds(30 * day, expected_items=100, max_bytes=16384)
    s = store(window=spec, idle_timeout=None)
    for d in range(1, 30):
        s.mark(1, [d * 10_000 + i for i in range(100)], now=d * day)
    s.mark(2, [7], now=day)
    assert s.saturation(now=30 * day).users_span_limited == 1
    assert s.stats.span_drops > 0
    usage = s.user_usage(1, now=30 * day)
    assert usage.bytes <= 16384 and usage.effective_span < spec.span and not usage.over_target
    kept = [d * 10_000 + i for d in range(1, 30) if 30 - d <= usage.effective_span // day for i in range(100)]
    assert kept and not any(s.filter(1, kept, now=30 * day))
