"""The filters under comparison, behind one small interface: fill with ids, then answer
`x in f`. A peer that is not installed is left out (bench/python/install-peers installs them)."""
import os
import tempfile
from typing import Callable, Dict, Iterable, List

import numpy

import seen

FILL_CHUNK = 1_000_000


class Peer:
    def __init__(self, name: str, make: Callable[[int, float], object],
                 fill: Callable[[object, numpy.ndarray], None], fill_limit: int = 0):
        self.name = name
        self.make = make
        self.fill = fill
        # Pure-Python peers add ~100x slower; they get this many keys (0: all of them).
        self.fill_limit = fill_limit


def _fill_by_chunks(add_all: Callable[[object, List[int]], None]):
    def fill(f: object, ids: numpy.ndarray) -> None:
        for start in range(0, len(ids), FILL_CHUNK):
            add_all(f, ids[start:start + FILL_CHUNK].tolist())
    return fill


def _seen() -> Peer:
    return Peer("seen", lambda n, p: seen.BloomFilter(n, p, seed=1),
                lambda f, ids: f.add_many(ids))


def _rbloom() -> Peer:
    import rbloom
    return Peer("rbloom", lambda n, p: rbloom.Bloom(n, p),
                _fill_by_chunks(lambda f, ids: f.update(ids)))


def _rbloom_stable() -> Peer:
    """rbloom as it must be used to save a filter for another process: its default hash is
    Python's hash(), which is randomized per process for str and bytes. The hash_func is the
    one rbloom's README suggests for persistence."""
    import hashlib
    import pickle

    import rbloom

    def stable_hash(obj: object) -> int:
        digest = hashlib.sha256(pickle.dumps(obj)).digest()
        return int.from_bytes(digest[:16], "big") - 2**127
    return Peer("rbloom (stable hash)", lambda n, p: rbloom.Bloom(n, p, hash_func=stable_hash),
                _fill_by_chunks(lambda f, ids: f.update(ids)), fill_limit=1_000_000)


def _pybloomfiltermmap3() -> Peer:
    import pybloomfilter
    directory = tempfile.mkdtemp(prefix="seen-bench-")
    return Peer("pybloomfiltermmap3",
                lambda n, p: pybloomfilter.BloomFilter(n, p, os.path.join(directory, "f.bloom")),
                _fill_by_chunks(lambda f, ids: f.update(ids)))


def _pybloom_live() -> Peer:
    import pybloom_live

    def add_each(f: object, ids: Iterable[int]) -> None:
        for i in ids:
            f.add(i)
    return Peer("pybloom-live", lambda n, p: pybloom_live.BloomFilter(n, p),
                _fill_by_chunks(add_each), fill_limit=500_000)


def available() -> Dict[str, Peer]:
    peers = {}
    for make in (_seen, _rbloom, _rbloom_stable, _pybloomfiltermmap3, _pybloom_live):
        try:
            peer = make()
        except ImportError as e:
            print(f"skipping a peer that is not installed: {e}")
            continue
        peers[peer.name] = peer
    return peers
