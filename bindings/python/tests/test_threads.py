"""Sharing one filter between threads: cffi releases the GIL in every C call, and the C side
ORs bits atomically, so concurrent adds lose nothing and queries never miss a finished add."""
import threading

import numpy

import seen
from together import run_together

THREADS = 4
PER_THREAD = 200_000


def test_concurrent_adds_lose_no_key():
    f = seen.BloomFilter(THREADS * PER_THREAD, 0.01)
    batches = [numpy.arange(t, THREADS * PER_THREAD, THREADS, dtype=numpy.uint64)
               for t in range(THREADS)]
    start = threading.Barrier(THREADS)

    def add(ids):
        start.wait()
        for chunk in numpy.array_split(ids, 50):
            f.add_many(chunk)
            f.add(int(chunk[0]) + 2**63)

    run_together(add, batches)
    assert all(f.contains_many(b).all() for b in batches)
    assert all(int(chunk[0]) + 2**63 in f for b in batches for chunk in numpy.array_split(b, 50))


def test_queries_during_adds_find_every_finished_add():
    f = seen.BloomFilter(1_000_000, 0.01)
    done = numpy.arange(100_000, dtype=numpy.uint64)
    f.add_many(done)
    misses = []

    def query():
        for _ in range(20):
            misses.append(int((~f.contains_many(done)).sum()))

    reader = threading.Thread(target=query)
    reader.start()
    for chunk in numpy.array_split(numpy.arange(100_000, 1_000_000, dtype=numpy.uint64), 20):
        f.add_many(chunk)
    reader.join()
    assert misses == [0] * 20


def test_add_reports_its_own_key_from_every_thread():
    """Each thread's add answers for its own key (a per-thread was_present slot): a key put a
    second time is always reported present, beside threads putting other keys."""
    f = seen.BloomFilter(400_000, 0.001)
    wrong = []

    def work(t):
        keys = range(t * 50_000, (t + 1) * 50_000)
        fresh = sum(not f.add(k) for k in keys)
        again = sum(f.add(k) for k in keys)
        if fresh < 49_000 or again != 50_000:
            wrong.append((t, fresh, again))

    run_together(work, range(4))
    assert wrong == []
