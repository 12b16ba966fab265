#!/usr/bin/env python3
"""Which CJK shingle length SimHash should use by default, measured on real Chinese text.

Passages of 450 characters from manpages-zh (bench/minhash/evaluate.py) and texts of about
3,150 characters, each seven consecutive passages. For each shingling: recall at k = 3 of
copies with character edits (and, for the short texts, a 15-character advert), 200 copies
each from a fixed seed; and false pairs, the pairs of corpus texts within k = 3 whose exact
character 3-shingle Jaccard is below 0.5, over all pairs. The IDF row weighs each token by
its inverse document frequency over the odd passages.

usage: bench/minhash/shingles.py OUT_DIR     writes OUT_DIR/simhash_shingles.md"""
import math
import random
import sys
from collections import Counter
from datetime import date
from pathlib import Path

import numpy as np
import seen

import evaluate  # noqa: E402  (this folder; imports datasketch before bench/ is on the path)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from page import machine  # noqa: E402

K = 3
COPIES = 200
SHORT_EDITS = (1, 3, 5, "advert")
LONG_EDITS = (5, 10, 20)


def cjk(text):
    return "".join(evaluate.CJK.findall(text))


def char_shingles(text):
    c = cjk(text)
    return {c[i:i + 3] for i in range(len(c) - 2)}


def idf_table(passages):
    df = Counter()
    for p in passages:
        c = cjk(p)
        df.update(set(c) | {c[i:i + 2] for i in range(len(c) - 1)})
    n = len(passages)
    return seen.IdfTable({t: math.log(n / (1 + d)) + 1 for t, d in df.items()}, default_weight=math.log(n) + 1)


def popcounts(x):
    return np.unpackbits(x.view(np.uint8)).reshape(-1, 64).sum(1)


def false_pairs(texts, fingerprints):
    count = 0
    for i in range(len(fingerprints)):
        near = np.nonzero(popcounts(fingerprints[i] ^ fingerprints[i + 1:]) <= K)[0]
        count += sum(evaluate.jaccard(char_shingles(texts[i]), char_shingles(texts[i + 1 + j])) < 0.5 for j in near)
    return count


def recall(texts, fingerprints, edits, simhash, rng, alphabet):
    found = 0
    for i in range(COPIES):
        if edits == "advert":
            at = rng.randrange(len(texts[i]))
            copy = texts[i][:at] + evaluate.AD + texts[i][at:]
        else:
            copy = evaluate.edit_chinese(rng, texts[i], edits, alphabet)
        found += seen.hamming(simhash(copy), int(fingerprints[i])) <= K
    return found / COPIES


def main():
    out = Path(sys.argv[1])
    passages = evaluate.chinese_passages(4000)
    long_texts = ["".join(passages[i:i + 7]) for i in range(0, len(passages) - 7, 7)]
    alphabet = sorted({c for p in passages for c in p if evaluate.CJK.match(c)})
    idf = idf_table(passages[1::2])
    schemes = [(f"{n}-grams", n, None) for n in (1, 2, 3)] + [(f"{n}-grams, IDF", n, idf) for n in (1, 2)]
    rows = []
    for name, n, table in schemes:
        rng = random.Random(7)
        cells = [name]
        for texts, edit_kinds in ((passages, SHORT_EDITS), (long_texts, LONG_EDITS)):
            fingerprints = np.array(seen.simhash_many(texts, ngram=n, idf=table), dtype=np.uint64)
            simhash = lambda t: seen.simhash(t, ngram=n, idf=table)  # noqa: E731
            cells += [f"{recall(texts, fingerprints, e, simhash, rng, alphabet):.3f}" for e in edit_kinds]
            cells.append(str(false_pairs(texts, fingerprints)))
        rows.append(cells)
        print(" | ".join(cells), flush=True)
    pairs_short = len(passages) * (len(passages) - 1) // 2
    pairs_long = len(long_texts) * (len(long_texts) - 1) // 2
    lines = [
        "# SimHash: the CJK shingle length",
        "",
        f"Measured {date.today()} on {machine()}, by `bench/minhash/shingles.py`.",
        "",
        f"Corpus: {len(passages):,} Chinese passages of 450 characters from manpages-zh, and "
        f"{len(long_texts):,} texts of about 3,150 characters (seven consecutive passages). Recall: "
        f"{COPIES} copies per column from seed 7, found when within k = {K} of their original. "
        f"False pairs: corpus pairs within k = {K} whose character 3-shingle Jaccard is below 0.5, "
        f"out of {pairs_short:,} (450) and {pairs_long:,} (3,150) pairs.",
        "",
        "| shingles | 450: 1 edit | 3 edits | 5 edits | advert | false pairs | "
        "3,150: 5 edits | 10 edits | 20 edits | false pairs |",
        "|---|" + "---:|" * 9,
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    (out / "simhash_shingles.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
