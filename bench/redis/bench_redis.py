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


MODULE = ""  # seen.so, from the command line

# The server on one core, redis-benchmark on the other, as the figures were taken.
SERVER_CPU, CLIENT_CPU = "0", "1"


def cpu_model():
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "an unknown CPU"


def server_cpu_ns(pid):
    """Time the server's main thread (which runs every command) has been on a CPU."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0])


def rps(server, args, requests):
    """Requests per second of one command (8 clients, pipelines of 16, from the other core),
    and the server's CPU time per request, which a busy machine disturbs less."""
    before = server_cpu_ns(server.proc.pid)
    out = subprocess.run(["taskset", "-c", CLIENT_CPU, "redis-benchmark", "-p", str(server.port),
                          "-c", "8", "-P", "16", "-n", str(requests), "-r", "100000", "--csv", *args],
                         check=True, capture_output=True).stdout.decode(errors="replace")
    cpu_ns = (server_cpu_ns(server.proc.pid) - before) / requests
    row = [line for line in out.splitlines() if line and not line.startswith('"test"')][-1]
    return float(row.split('","')[1]), cpu_ns


CANDIDATES = (1, 100, 1000, 10000)
# Per candidate count: requests in a run of each command, about a second each.
REQUESTS = {1: 400_000, 100: 200_000, 1000: 30_000, 10000: 3_000}


def throughput(server, rounds):
    rng = random.Random(1)
    r = server.client()
    members = ids_without_zero_bytes(rng, 500)
    fresh = ids_without_zero_bytes(rng, 10_000)
    r.execute_command("SEEN.MARKB", "win", pack_ids(members))
    r.sadd("intset", *dec(members))  # integers, at most 512: an intset
    r.sadd("hashset", *[b"i" + m for m in dec(members)])  # not integers: a hash table
    r.zadd("zset", {m: n for n, m in enumerate(dec(members))})
    r.set("string", b"x" * 13)
    assert r.object("encoding", "intset") == b"intset" and r.object("encoding", "hashset") == b"hashtable"
    commands = {
        "PING": ([b"PING"], 400_000),
        "GET": ([b"GET", b"string"], 400_000),
        "FLOOR.PING": ([b"FLOOR.PING"], 400_000),
        "FLOOR.KEY": ([b"FLOOR.KEY", b"win", pack_ids(members[:1])], 400_000),
    }
    for n in CANDIDATES:
        # Half seen, half not, as a recall request's candidates might be.
        cands = members[:n // 2] + fresh[:n - n // 2] if n > 1 else members[:1]
        commands[f"SEEN.FILTERB {n}"] = ([b"SEEN.FILTERB", b"win", pack_ids(cands)], REQUESTS[n])
        commands[f"SMISMEMBER intset {n}"] = ([b"SMISMEMBER", b"intset", *dec(cands)], REQUESTS[n] // 4)
        commands[f"SMISMEMBER hashtable {n}"] = ([b"SMISMEMBER", b"hashset", *[b"i" + c for c in dec(cands)]],
                                                 REQUESTS[n] // 4)
        commands[f"ZMSCORE {n}"] = ([b"ZMSCORE", b"zset", *dec(cands)], REQUESTS[n] // 4)
    # 20 ids into one of 10^5 users' windows or sets, picked at random per request.
    ids20 = fresh[:20]
    commands["SEEN.MARKB 20"] = ([b"SEEN.MARKB", b"exp:__rand_int__", pack_ids(ids20)], 200_000)
    commands["SADD 20"] = ([b"SADD", b"set:__rand_int__", *dec(ids20)], 200_000)
    runs = {name: [] for name in commands}
    cpu = {name: [] for name in commands}
    for _ in range(rounds):  # interleaved: every command once per round
        for name, (args, n) in commands.items():
            q, c = rps(server, args, n)
            runs[name].append(q)
            cpu[name].append(c)
    return runs, cpu


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
        server = Server(tmp / kind.replace(" ", "-"), module_args=["COUNT", "500", "FPR", "0.01"],
                        module=MODULE)
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
    server = Server(tmp / command, extra=["--rdbcompression", "yes"], module=MODULE)
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
    ap.add_argument("--floor", help="redis_floor.so (default: beside the module's build)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--users", type=int, default=100_000)
    ap.add_argument("--peer-users", type=int, default=10_000)
    ap.add_argument("--reload-users", type=int, default=1_000_000)
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "redis.md"))
    a = ap.parse_args()
    a.floor = a.floor or str(Path(a.module).with_name("redis_floor.so"))
    global MODULE
    MODULE = str(Path(a.module).resolve())
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        server = Server(tmp / "throughput", module_args=["COUNT", "500", "FPR", "0.01"], module=MODULE,
                        extra=["--loadmodule", str(Path(a.floor).resolve())],
                        wrapper=["taskset", "-c", SERVER_CPU])
        try:
            runs, cpu = throughput(server, a.rounds)
        finally:
            server.stop()
        memory = memory_per_user(tmp, a.users, a.peer_users)
        reload_s, reload_keys, rdb_bytes = reload_seconds(tmp, a.reload_users, "SEEN.LOAD")
        string_reload_s = reload_seconds(tmp, a.reload_users, "SET")[0]
    version = subprocess.run(["redis-server", "--version"], capture_output=True,
                             text=True).stdout.split()[2]
    lines = ["# Redis module: SEEN.* against Redis's own types", "",
             "By `bench/redis/run` on " + f"{cpu_model()}, {time.strftime('%Y-%m-%d')}. "
             f"Redis {version.removeprefix('v=')} (Debian), the server on one core and "
             "`redis-benchmark -c 8 -P 16` on the other, "
             f"{a.rounds} interleaved rounds (medians; ratios are medians of per-round ratios). "
             "Two measures: requests per second, and the server's CPU time per request (its main "
             "thread's, from /proc), which other work on the machine disturbs less; a ratio of "
             "the second is the ratio of requests per CPU-second. The window is the module default "
             "(last 500 ids, 1%); the sets and the sorted set hold the same 500 ids, "
             "candidates are half of them and half fresh ids. FLOOR.PING and FLOOR.KEY are a "
             "module's floor (bench/redis/floor_module.cc): a module command replying PONG, and "
             "one opening its key and replying one byte, as FILTERB of one id does around its probe.",
             "", "| command | requests/s | vs PING | server µs/request | vs PING (CPU) |",
             "|---|---:|---:|---:|---:|"]

    def row(name):
        med = statistics.median(runs[name])
        us = statistics.median(cpu[name]) / 1000
        lines.append(f"| {name} | {med:,.0f} | {ratio(runs, name, 'PING'):.2f}x | {us:.2f} | "
                     f"{ratio(cpu, 'PING', name):.2f}x |")

    for name in ("PING", "GET", "FLOOR.PING", "FLOOR.KEY"):
        row(name)
    for n in CANDIDATES:
        for kind in ("SEEN.FILTERB", "SMISMEMBER intset", "SMISMEMBER hashtable", "ZMSCORE"):
            row(f"{kind} {n}")
    row("SEEN.MARKB 20")
    row("SADD 20")
    lines += ["", "Against the issue's figures (requests/s ratios; the CPU ratios beside):", "",
              "| figure | target | requests/s | CPU | met |", "|---|---:|---:|---:|:---:|"]

    def figure(label, a_name, b_name, target):
        q = ratio(runs, a_name, b_name)
        c = ratio(cpu, b_name, a_name)
        lines.append(f"| {label} | ≥ {target}x | {q:.2f}x | {c:.2f}x | {'yes' if q >= target else '**no**'} |")

    figure("FILTERB 1 / PING", "SEEN.FILTERB 1", "PING", 0.8)
    figure("FLOOR.KEY / PING (a module's floor)", "FLOOR.KEY", "PING", 0.8)
    figure("FILTERB 100 / PING", "SEEN.FILTERB 100", "PING", 0.6)
    figure("FILTERB 100 / SMISMEMBER 100 (hashtable)", "SEEN.FILTERB 100", "SMISMEMBER hashtable 100", 5)
    figure("FILTERB 1000 / SMISMEMBER 1000 (hashtable)", "SEEN.FILTERB 1000", "SMISMEMBER hashtable 1000", 15)
    figure("MARKB 20 / SADD 20", "SEEN.MARKB 20", "SADD 20", 0.9)
    lines += ["", "Memory per user, 500 random ids each, keys `exp:{user}` (deltas of `INFO memory` "
              "over the load, as docs/distributed.md tells operators to count). Every byte of a "
              "window is Redis's (`RedisModule_Alloc`), in one block: its handle and its state.", "",
              "| type | users | used_memory / user | used_memory_rss / user |",
              "|---|---:|---:|---:|"]
    for kind, (users, used, rss) in memory.items():
        lines.append(f"| {kind} | {users:,} | {used:,.0f} B | {rss:,.0f} B |")
    win_rss = memory["seen window"][2]
    lines += ["", f"Target: ≤ 1,126 B RSS per user, Redis overhead included: "
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
