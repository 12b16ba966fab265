"""The near-duplicate methods evaluate.py compares, each behind one interface: add(id, text),
query(text) -> ids, bytes(). seen's SimHash and MinHash indexes, datasketch's MinHashLSH and
the `simhash` package, each with the features a new user gets by default, except that
datasketch, which takes no text, is fed the same word or character pairs as seen's MinHash."""
import logging
import re

import seen
import simhash
from datasketch import MinHash, MinHashLSH

SIMHASH_K = 3
# The k that keeps SimHash's false pairs within 10^-6 on ordinary English prose of 3,000
# characters and more (bench/results/simhash_features.md): shown beside the default k.
SIMHASH_LONG_K = 6
TOKEN = re.compile(r"[\u4e00-\u9fff]|[^\W_]+")

# The simhash package warns on every bucket of more than 200 entries, which common shingles
# of the license corpus fill; the warnings say nothing about recall.
logging.getLogger("simhash").setLevel(logging.ERROR)


def tokens(text):
    return TOKEN.findall(text.lower())


def shingles(text):
    """Pairs of adjacent tokens (a CJK character or a word): what seen's MinHash hashes."""
    t = tokens(text)
    return {" ".join(t[i:i + 2]) for i in range(max(1, len(t) - 1))}


class SeenMinhash:
    def __init__(self, threshold):
        self.name = f"seen MinHash (128 bins, t = {threshold})"
        self.index = seen.MinHashIndex(threshold=threshold)

    def add(self, i, text):
        self.index.add(i, text)

    def query(self, text):
        return [i for i, _ in self.index.query(text)]

    def bytes(self):
        return self.index.bytes


class SeenSimhash:
    def __init__(self, k):
        self.name = f"seen SimHash (k = {k})"
        self.index = seen.SimHashIndex(k=k)

    def add(self, i, text):
        self.index.add(i, seen.simhash(text))

    def query(self, text):
        return [i for i, _ in self.index.query(seen.simhash(text))]

    def bytes(self):
        return None


class Datasketch:
    def __init__(self, threshold):
        self.name = f"datasketch MinHashLSH (128 permutations, t = {threshold})"
        self.index = MinHashLSH(threshold=threshold, num_perm=128)

    @staticmethod
    def sketch(text):
        # update_batch gives the same sketch as update() per shingle, and is datasketch's
        # fastest documented way in: the per-query comparison is against datasketch at its best.
        m = MinHash(num_perm=128)
        m.update_batch([s.encode() for s in shingles(text)])
        return m

    def add(self, i, text):
        self.index.insert(i, self.sketch(text))

    def query(self, text):
        return self.index.query(self.sketch(text))

    def bytes(self):
        return None


class SimhashPackage:
    """The PyPI `simhash` package as documented: Simhash(text), whose features are character
    4-grams of the lowercased text with everything but word characters removed."""
    name = f"simhash package (k = {SIMHASH_K})"

    def __init__(self):
        self.index = simhash.SimhashIndex([], k=SIMHASH_K)

    def add(self, i, text):
        self.index.add(str(i), simhash.Simhash(text))

    def query(self, text):
        return [int(i) for i in self.index.get_near_dups(simhash.Simhash(text))]

    def bytes(self):
        return None


def all_methods(thresholds):
    return ([SeenSimhash(SIMHASH_K), SeenSimhash(SIMHASH_LONG_K), SimhashPackage()] +
            [m for t in thresholds for m in (SeenMinhash(t), Datasketch(t))])
