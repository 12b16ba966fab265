"""Figures of seen's Redis module against Redis's own types, on Debian's redis-server:
throughput ratios from one interleaved run of redis-benchmark, memory per user from INFO
memory, and the RDB load time of a million users. Writes bench/results/redis.md.

usage: bench_redis.py MODULE_SO [--rounds 5] [--users 100000] [--reload-users 1000000]"""
import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "integrations" / "redis" / "tests"))
from servers import Server  # noqa: E402  (the tests' server runner)

import seen  # noqa: E402
from seen.redis import pack_ids  # noqa: E402


def ids_without_zero_bytes(rng, n):
    """Ids whose packed form has no NUL byte: redis-benchmark takes arguments from argv."""
    return [int.from_bytes(bytes(rng.randrange(1, 128) for _ in range(8)), "little")
            for _ in range(n)]


def dec(ids):
    return [str(i).encode() for i in ids]


def rps(port, args, requests):
    """Requests per second of one command: 8 clients, pipelines of 16."""
    out = subprocess.run(["redis-benchmark", "-p", str(port), "-c", "8", "-P", "16",
                          "-n", str(requests), "-r", "100000", "--csv", *args],
                         check=True, capture_output=True).stdout.decode(errors="replace")
    row = [line for line in out.splitlines() if line and not line.startswith('"test"')][-1]
    return float(row.split('","')[1])


def throughput(server, rounds):
    rng = random.Random(1)
    r = server.client()
    members = ids_without_zero_bytes(rng, 500)
    r.sadd("set", *dec(members))
    r.execute_command("SEEN.MARKB", "win", pack_ids(members))
    fresh = ids_without_zero_bytes(rng, 1000)
    c100 = members[:50] + fresh[:50]
    c1000 = members + fresh[:500]
    ids20 = fresh[:20]
    commands = {
        "PING": ([b"PING"], 400_000),
        # One candidate: the module command's own cost over PING (key lookup, type check, reply).
        "SEEN.FILTERB 1": ([b"SEEN.FILTERB", b"win", pack_ids(c100[:1])], 400_000),
        "SEEN.FILTERB 100": ([b"SEEN.FILTERB", b"win", pack_ids(c100)], 400_000),
        "SEEN.FILTER 100": ([b"SEEN.FILTER", b"win", *dec(c100)], 100_000),
        "SMISMEMBER 100": ([b"SMISMEMBER", b"set", *dec(c100)], 100_000),
        "SEEN.FILTERB 1000": ([b"SEEN.FILTERB", b"win", pack_ids(c1000)], 100_000),
        "SEEN.FILTER 1000": ([b"SEEN.FILTER", b"win", *dec(c1000)], 20_000),
        "SMISMEMBER 1000": ([b"SMISMEMBER", b"set", *dec(c1000)], 20_000),
        "SEEN.MARKB 20": ([b"SEEN.MARKB", b"exp:__rand_int__", pack_ids(ids20)], 200_000),
        "SADD 20": ([b"SADD", b"set:__rand_int__", *dec(ids20)], 200_000),
    }
    runs = {name: [] for name in commands}
    for _ in range(rounds):  # interleaved: every command once per round
        for name, (args, n) in commands.items():
            runs[name].append(rps(server.port, args, n))
    return runs


def ratio(runs, a, b):
    """The median over rounds of a/b, each round's pair measured back to back."""
    return statistics.median(x / y for x, y in zip(runs[a], runs[b]))


def memory_per_user(tmp, module_users, peer_users):
    rng = random.Random(2)
    result = {}
    # A plain string of a window's serialized bytes is Redis's own floor for a value that size.
    state = window_blob()
    for kind, users in (("seen window", module_users), ("string of its bytes", module_users),
                        ("set", peer_users), ("sorted set", peer_users)):
        server = Server(tmp / kind.replace(" ", "-"), module_args=["COUNT", "500", "FPR", "0.01"])
        try:
            r = server.client()
            before = r.info("memory")
            pipe = r.pipeline(transaction=False)
            for u in range(users):
                ids = [rng.getrandbits(63) for _ in range(500)]
                key = f"exp:{{{u}}}"
                if kind == "seen window":
                    pipe.execute_command("SEEN.MARKB", key, pack_ids(ids))
                elif kind == "string of its bytes":
                    pipe.set(key, state)
                elif kind == "set":
                    pipe.sadd(key, *ids)
                else:
                    pipe.zadd(key, {i: 1_700_000_000 + n for n, i in enumerate(ids)})
                if u % 500 == 499:
                    pipe.execute()
            pipe.execute()
            time.sleep(1)
            after = r.info("memory")
            result[kind] = (users,
                            (after["used_memory"] - before["used_memory"]) / users,
                            (after["used_memory_rss"] - before["used_memory_rss"]) / users)
        finally:
            server.stop()
    return result


def window_blob():
    """The serialized form of a full default window (last 500 ids, 1%)."""
    window = seen.Window.last_items(500, fpr=0.01)
    window.add_many(list(range(500)))
    return window.to_bytes()


def reload_seconds(tmp, users, command):
    """RDB load time of `users` keys, each written by `command` (SEEN.LOAD or SET) with a
    full window's serialized bytes."""
    server = Server(tmp / command, extra=["--rdbcompression", "yes"])
    try:
        r = server.client()
        blob = window_blob()
        pipe = r.pipeline(transaction=False)
        for u in range(users):
            pipe.execute_command(command, f"exp:{{{u}}}", blob)
            if u % 2000 == 1999:
                pipe.execute()
        pipe.execute()
        r.save()
        server.restart()
        loaded = re.findall(r"DB loaded from disk: ([0-9.]+) seconds", server.log())
        keys = server.client().dbsize()
        return float(loaded[-1]), keys, (tmp / command / "dump.rdb").stat().st_size
    finally:
        server.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("module")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--users", type=int, default=100_000)
    ap.add_argument("--peer-users", type=int, default=10_000)
    ap.add_argument("--reload-users", type=int, default=1_000_000)
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "redis.md"))
    a = ap.parse_args()
    import servers
    servers.MODULE = str(Path(a.module).resolve())
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        server = Server(tmp / "throughput", module_args=["COUNT", "500", "FPR", "0.01"])
        try:
            runs = throughput(server, a.rounds)
        finally:
            server.stop()
        memory = memory_per_user(tmp, a.users, a.peer_users)
        reload_s, reload_keys, rdb_bytes = reload_seconds(tmp, a.reload_users, "SEEN.LOAD")
        string_reload_s = reload_seconds(tmp, a.reload_users, "SET")[0]
    version = subprocess.run(["redis-server", "--version"], capture_output=True,
                             text=True).stdout.split()[2]
    lines = ["# Redis module: SEEN.* against Redis's own types", "",
             "By `bench/redis/run`. " + f"Redis {version.removeprefix('v=')} (Debian 12), one server, `redis-benchmark -c 8 -P 16`, "
             f"{a.rounds} interleaved rounds (medians; ratios are medians of per-round ratios). "
             "The window is the module default (last 500 ids, 1%); the set holds the same 500 ids.",
             "", "| command | requests/s | ratio | target | met |", "|---|---:|---|---|:---:|"]

    def row(name, versus=None, target=None):
        med = statistics.median(runs[name])
        if versus is None:
            lines.append(f"| {name} | {med:,.0f} | | | |")
            return
        q = ratio(runs, name, versus)
        met = "" if target is None else ("yes" if q >= target else "**no**")
        t = "" if target is None else f"≥ {target}x"
        lines.append(f"| {name} | {med:,.0f} | {q:.2f}x {versus} | {t} | {met} |")

    row("PING")
    row("SEEN.FILTERB 1", "PING")
    row("SEEN.FILTERB 100", "SMISMEMBER 100", 1.5)
    lines.append(f"| (same) | | {ratio(runs, 'SEEN.FILTERB 100', 'PING'):.2f}x PING | ≥ 0.8x | "
                 f"{'yes' if ratio(runs, 'SEEN.FILTERB 100', 'PING') >= 0.8 else '**no**'} |")
    row("SEEN.FILTER 100", "SMISMEMBER 100")
    row("SMISMEMBER 100")
    row("SEEN.FILTERB 1000", "SMISMEMBER 1000", 3)
    row("SEEN.FILTER 1000", "SMISMEMBER 1000")
    row("SMISMEMBER 1000")
    row("SEEN.MARKB 20", "SADD 20", 1)
    row("SADD 20")
    lines += ["", "Memory per user, 500 random ids each (deltas of `INFO memory` over the load). "
              "The module's windows are allocated by the C++ core, outside Redis's allocator, so "
              "`used_memory` misses them; `used_memory_rss` counts everything.", "",
              "| type | users | used_memory / user | used_memory_rss / user |",
              "|---|---:|---:|---:|"]
    for kind, (users, used, rss) in memory.items():
        lines.append(f"| {kind} | {users:,} | {used:,.0f} B | {rss:,.0f} B |")
    win_rss = memory["seen window"][2]
    lines += ["", f"Target: ≤ 1.1 KB (1126 B) per user, Redis overhead included: "
              f"{win_rss:,.0f} B RSS per user, {'met' if win_rss <= 1126 else '**not met**'} "
              f"({win_rss / memory['string of its bytes'][2]:.2f}x a plain string of the window's "
              f"{len(window_blob()):,} serialized bytes).", "",
              f"RDB load: {reload_keys:,} windows (RDB of {rdb_bytes / 2**20:,.0f} MiB) loaded in "
              f"**{reload_s:.2f} s** (from the server log; target ≤ 3 s: "
              f"{'met' if reload_s <= 3 else '**not met**'}). The same keys holding plain strings "
              f"of the same bytes load in {string_reload_s:.2f} s: the windows take "
              f"{reload_s / string_reload_s:.2f}x Redis's own floor for that RDB."]
    Path(a.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
