#!/usr/bin/env python3
"""Near-duplicate detection on real text with known edits: seen's MinHash index and SimHash
index beside datasketch's MinHashLSH, on the same passages and the same copies.

Corpora, from Debian packages the bench installs: Chinese passages of 300-600 characters
from manpages-zh, English passages of 500-1,000 characters from the licenses and copyright
files under /usr/share. Copies, from a fixed seed: 1, 3 and 5 edits (characters for Chinese,
words for English), a 15-character advert inserted (Chinese), a 20-word header or footer
(English). A copy is found when its passage is among its matches. A false pair is a match
whose exact shingle Jaccard with the copy is below 0.5 (natural duplicates among the
passages, such as repeated license text, are neither true nor false).

usage: bench/minhash/evaluate.py OUT_DIR     writes OUT_DIR/minhash.json"""
import gzip
import json
import random
import re
import statistics
import sys
import time
from pathlib import Path

import seen
from datasketch import MinHash, MinHashLSH

# 0.8 is the usual default; 0.7 is what the English targets need: 5 edited words change up to
# 10 word pairs, and a 20-word header adds about 20, which puts an 80-word passage (500
# characters) near J = 0.78, and an estimate of 128 bins varies by about 0.04 there.
THRESHOLDS = (0.8, 0.7)
SIMHASH_K = 3
BASES = 200
CJK = re.compile(r"[\u4e00-\u9fff]")
TOKEN = re.compile(r"[\u4e00-\u9fff]|[^\W_]+")
AD = "点击链接立即领取限时免费优惠券"


def tokens(text):
    return TOKEN.findall(text.lower())


def shingles(text):
    t = tokens(text)
    return {" ".join(t[i:i + 2]) for i in range(max(1, len(t) - 1))}


def jaccard(a, b):
    return len(a & b) / len(a | b) if a or b else 0.0


def chinese_passages(limit):
    passages = []
    for page in sorted(Path("/usr/share/man/zh_CN").glob("man*/*.gz")):
        lines = gzip.open(page, "rt", encoding="utf-8", errors="replace").read().splitlines()
        text = "".join(re.sub(r"\\f.|\\[(*][^ ]*", "", l) for l in lines if not l.startswith((".", "'")))
        for start in range(0, len(text) - 300, 450):
            chunk = text[start:start + 450]
            if len(CJK.findall(chunk)) > 0.5 * len(chunk):
                passages.append(chunk)
        if len(passages) >= limit:
            break
    return passages[:limit]


def english_passages(limit, low=500, high=1000):
    """Paragraphs of low..high characters (or, for long texts, runs of paragraphs)."""
    files = sorted(Path("/usr/share/common-licenses").iterdir()) + sorted(Path("/usr/share/doc").glob("*/copyright"))
    passages, seen_texts = [], set()
    for f in files:
        try:
            text = f.read_text(errors="replace")
        except (IsADirectoryError, PermissionError):
            continue
        run = ""
        for para in re.split(r"\n\s*\n", text):
            run = (run + " " + " ".join(para.split())).strip()
            if len(run) > high:
                run = ""
            elif len(run) >= low and run not in seen_texts:
                seen_texts.add(run)
                passages.append(run)
                run = ""
            elif low < 2000:
                run = ""
        if len(passages) >= limit:
            break
    return passages[:limit]


def edit_chinese(rng, text, edits, alphabet):
    chars = list(text)
    positions = [i for i, c in enumerate(chars) if CJK.match(c)]
    for i in rng.sample(positions, edits):
        chars[i] = rng.choice(alphabet)
    return "".join(chars)


def edit_english(rng, text, edits, vocabulary):
    words = text.split()
    for i in rng.sample(range(len(words)), edits):
        words[i] = rng.choice(vocabulary)
    return " ".join(words)


def copies(lang, rng, passages):
    """(kind, base index, copy) for the first BASES passages."""
    out = []
    if lang == "zh":
        alphabet = sorted({c for p in passages for c in p if CJK.match(c)})
        for i in range(min(BASES, len(passages))):
            for edits in (1, 3, 5):
                out.append((f"{edits} edits", i, edit_chinese(rng, passages[i], edits, alphabet)))
            at = rng.randrange(len(passages[i]))
            out.append(("15-character advert", i, passages[i][:at] + AD + passages[i][at:]))
    else:
        # Plain words: a raw "word" such as an e-mail address is several tokens.
        vocabulary = sorted({w for p in passages for w in re.findall(r"[A-Za-z]{2,}", p)})
        for i in range(min(BASES, len(passages))):
            for edits in (1, 3, 5):
                out.append((f"{edits} word edits", i, edit_english(rng, passages[i], edits, vocabulary)))
            extra = " ".join(rng.choice(vocabulary) for _ in range(20))
            out.append(("20-word header", i, extra + " " + passages[i]))
            out.append(("20-word footer", i, passages[i] + " " + extra))
    return out


class SeenMinhash:
    def __init__(self, threshold):
        self.name = f"seen MinHash (128 bins, t = {threshold})"
        self.index = seen.MinhashIndex(threshold=threshold)

    def add(self, i, text):
        self.index.add(i, text)

    def query(self, text):
        return [i for i, _ in self.index.query(text)]

    def bytes(self):
        return self.index.bytes


class SeenSimhash:
    name = f"seen SimHash (k = {SIMHASH_K})"

    def __init__(self):
        self.index = seen.SimhashIndex(k=SIMHASH_K)

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
        m = MinHash(num_perm=128)
        for s in shingles(text):
            m.update(s.encode())
        return m

    def add(self, i, text):
        self.index.insert(i, self.sketch(text))

    def query(self, text):
        return self.index.query(self.sketch(text))

    def bytes(self):
        return None


def evaluate(lang, passages, rng):
    base_shingles = [shingles(p) for p in passages]
    queries = copies(lang, rng, passages)
    results = {}
    methods = [SeenSimhash()] + [m for t in THRESHOLDS for m in (SeenMinhash(t), Datasketch(t))]
    for method in methods:
        start = time.perf_counter()
        for i, p in enumerate(passages):
            method.add(i, p)
        build_s = time.perf_counter() - start
        found, totals, false_pairs, micros = {}, {}, 0, []
        for kind, base, text in queries:
            start = time.perf_counter()
            matches = method.query(text)
            micros.append(1e6 * (time.perf_counter() - start))
            totals[kind] = totals.get(kind, 0) + 1
            found[kind] = found.get(kind, 0) + (base in matches)
            copy = shingles(text)
            false_pairs += sum(1 for m in matches if m != base and jaccard(copy, base_shingles[m]) < 0.5)
        results[method.name] = {
            "recall": {k: found[k] / totals[k] for k in totals},
            "false_pairs": false_pairs,
            "pairs_checked": len(queries) * len(passages),
            "query_median_us": statistics.median(micros),
            "build_s": build_s,
            "bytes": method.bytes(),
        }
    return {"passages": len(passages), "queries": len(queries), "methods": results}


def main():
    out = Path(sys.argv[1])
    rng = random.Random(20261124)
    report = {"thresholds": THRESHOLDS,
              "zh": evaluate("zh", chinese_passages(2000), rng),
              "en": evaluate("en", english_passages(2000), rng),
              "en_long": evaluate("en", english_passages(400, 3000, 6000), rng)}
    (out / "minhash.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
