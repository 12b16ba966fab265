"""The module answers as a local seen.Window given the same sequence, and never forgets."""
import random

import seen
from seen.redis import RedisWindows, pack_ids, unpack_bitmap, unpack_ids


def local_take(window, want, ids, now):
    """TAKE's contract, on a local window: the first `want` unseen ids, each once, marked."""
    seen_flags = [window.contains(as_key(i), now) for i in ids]
    taken = []
    for i, was_seen in zip(ids, seen_flags):
        if len(taken) == want:
            break
        if not was_seen and i not in taken:
            taken.append(i)
    if taken:
        window.add_many([as_key(i) for i in taken], now)
    return taken


def as_key(i):
    """An id as the byte key it hashes as: integers as their 8 little-endian bytes."""
    return i.to_bytes(8, "little") if isinstance(i, int) else i


def as_arg(i):
    return str(i) if isinstance(i, int) else i


def test_random_sequence_matches_a_local_window_byte_for_byte(r):
    rng = random.Random(12)
    local = seen.Window.last_seconds(3600, expected_items=300, fpr=0.01, seed=7, now=1000)
    r.execute_command("SEEN.RESERVE", "w", "SECONDS", 3600, "ITEMS", 300, "FPR", 0.01, "SEED", 7)
    r.execute_command("SEEN.LOAD", "w", local.to_bytes())  # the same clock start
    now = 1000
    universe = list(range(400)) + [f"s{i}".encode() for i in range(100)]
    for step in range(400):
        now += rng.randrange(0, 60)
        ids = rng.sample(universe, rng.randrange(1, 12))
        op = rng.choice(["mark", "filter", "take"])
        packed = all(isinstance(i, int) for i in ids)
        if op == "mark":
            if packed and rng.random() < 0.5:
                r.execute_command("SEEN.MARKB", "w", "NOW", now, pack_ids(ids))
            else:
                r.execute_command("SEEN.MARK", "w", "NOW", now, *map(as_arg, ids))
            local.add_many([as_key(i) for i in ids], now)
        elif op == "filter":
            expect = [i for i in ids if not local.contains(i, now)]
            if packed:
                bitmap = r.execute_command("SEEN.FILTERB", "w", "NOW", now, pack_ids(ids))
                got = [i for i, u in zip(ids, unpack_bitmap(bitmap, len(ids))) if u]
            else:
                reply = r.execute_command("SEEN.FILTER", "w", "NOW", now, *map(as_arg, ids))
                got = [i for i in ids if str(as_arg(i)).encode() in reply
                       or as_arg(i) in reply]
            assert got == expect, f"step {step}"
        else:
            want = rng.randrange(0, 5)
            expect = local_take(local, want, ids, now)
            if packed:
                got = unpack_ids(r.execute_command("SEEN.TAKEB", "w", want, "NOW", now,
                                                   pack_ids(ids)))
            else:
                reply = r.execute_command("SEEN.TAKE", "w", want, "NOW", now, *map(as_arg, ids))
                got = [int(x) if x.isdigit() else x for x in reply]
            assert got == expect, f"step {step}"
    # The module's RDB value is the window's serialized form: the same bytes as the local one.
    assert local.to_bytes() in r.dump("w")


def test_no_false_negatives_over_ten_thousand_users(r):
    rng = random.Random(4)
    windows = RedisWindows(r)
    marked = {}
    pipe = r.pipeline(transaction=False)
    for user in range(10_000):
        ids = [rng.getrandbits(64) for _ in range(rng.randrange(1, 200))]
        marked[user] = ids
        RedisWindows(pipe).mark(f"exp:{{{user}}}", ids)
    pipe.execute()
    fresh_total = fresh_unseen = 0
    pipe = r.pipeline(transaction=False)
    candidates = {}
    for user, ids in marked.items():
        fresh = [rng.getrandbits(64) for _ in range(20)]
        candidates[user] = ids + fresh
        pipe.execute_command("SEEN.FILTERB", f"exp:{{{user}}}", pack_ids(candidates[user]))
    for user, bitmap in zip(marked, pipe.execute()):
        flags = unpack_bitmap(bitmap, len(candidates[user]))
        n = len(marked[user])
        assert not any(flags[:n]), f"user {user} lost a marked id"
        fresh_total += len(flags) - n
        fresh_unseen += sum(flags[n:])
    # Below 200 ids a default window (500 ids, 1%) is a fingerprint ring at fpr <= 0.3%.
    assert fresh_unseen / fresh_total > 0.99
    assert windows.filter("exp:{0}", marked[0][:3]) == []


def test_decimal_ids_are_integers_and_anything_else_is_bytes(r):
    r.execute_command("SEEN.MARK", "k", "42", "042", "18446744073709551616", "-1")
    local = seen.Window.last_items(500, fpr=0.01)
    local.add_many([as_key(42), b"042", b"18446744073709551616", b"-1"])
    assert local.to_bytes() in r.dump("k")
    bitmap = r.execute_command("SEEN.FILTERB", "k", pack_ids([42, 43]))
    assert unpack_bitmap(bitmap, 2) == [False, True]


def test_take_gives_each_id_once(r):
    assert r.execute_command("SEEN.TAKE", "k", 3, "a", "a", "b", "c", "d") == [b"a", b"b", b"c"]
    assert r.execute_command("SEEN.TAKE", "k", 3, "a", "b", "c", "d") == [b"d"]
    assert r.execute_command("SEEN.TAKE", "k", 3, "a", "b") == []
    assert unpack_ids(r.execute_command("SEEN.TAKEB", "k2", 2, pack_ids([5, 5, 6, 7]))) == [5, 6]


def test_filter_of_an_unknown_key_is_everything_and_creates_nothing(r):
    assert r.execute_command("SEEN.FILTER", "none", "1", "x") == [b"1", b"x"]
    assert unpack_bitmap(r.execute_command("SEEN.FILTERB", "none", pack_ids([1, 2, 3])), 3) \
        == [True, True, True]
    assert r.exists("none") == 0


def test_mark_ttl_sets_and_refreshes_the_expiry(r):
    r.execute_command("SEEN.MARK", "k", "TTL", 100, "1")
    assert 95 <= r.ttl("k") <= 100
    r.execute_command("SEEN.MARKB", "k", "TTL", 5000, pack_ids([2]))
    assert 4990 <= r.ttl("k") <= 5000
    r.execute_command("SEEN.MARK", "k", "3")
    assert r.ttl("k") > 4000  # a mark without TTL leaves the expiry alone


def test_info_reports_the_window_a_local_spec_gives(r):
    r.execute_command("SEEN.RESERVE", "k", "COUNT", 2000, "FPR", 0.001, "SEED", 9)
    info = RedisWindows(r).info("k")
    local = seen.Window.last_items(2000, fpr=0.001, seed=9).info
    assert (info["mode"], info["layout"], info["span"], info["bytes"], info["seed"]) == \
        ("count", local.layout, local.span, local.state_bytes, 9)
    assert abs(info["predicted_fpr"] - local.predicted_fpr) < 1e-12
    assert abs(info["slack"] - local.slack) < 1e-12


def test_info_shows_a_time_window_growing_past_its_start(r):
    """A day's window expecting 50 items: 5 items keep it at its start; 2,000 make it grow
    (bytes, and MEMORY USAGE, follow) while fpr_now stays under the 1% target and nothing
    is given up (effective_span is the span)."""
    r.execute_command("SEEN.RESERVE", "k", "SECONDS", 86400, "ITEMS", 50, "FPR", 0.01)
    now = int(r.time()[0])
    r.execute_command("SEEN.MARKB", "k", "NOW", now, pack_ids(range(5)))
    light = RedisWindows(r).info("k")
    light_memory = r.memory_usage("k")
    r.execute_command("SEEN.MARKB", "k", "NOW", now, pack_ids(range(5, 2005)))
    heavy = RedisWindows(r).info("k")
    assert light["layout"] == "table" and light["bytes"] == light["start_bytes"]
    assert heavy["bytes"] > 4 * light["bytes"] and r.memory_usage("k") > 4 * light_memory
    assert light["fpr_now"] <= heavy["fpr_now"] <= 0.011
    assert heavy["effective_span"] == heavy["span"] and heavy["max_bytes"] == 1 << 20


def test_mark_creates_windows_with_the_module_defaults(r):
    r.execute_command("SEEN.MARK", "k", "1")
    info = RedisWindows(r).info("k")
    assert (info["mode"], info["span"]) == ("count", 500)


def test_copy_digest_and_memory_usage_see_the_window(r):
    r.execute_command("SEEN.MARKB", "k", pack_ids(range(100)))
    assert r.copy("k", "k2")
    assert r.dump("k2") == r.dump("k")
    digest = r.execute_command("DEBUG", "DIGEST-VALUE", "k")
    assert r.execute_command("DEBUG", "DIGEST-VALUE", "k2") == digest
    r.execute_command("SEEN.MARK", "k2", "one more")
    assert r.execute_command("DEBUG", "DIGEST-VALUE", "k2") != digest
    assert r.execute_command("SEEN.FILTER", "k", "one more") == [b"one more"]  # a true copy
    assert r.memory_usage("k") >= RedisWindows(r).info("k")["bytes"]
