#!/usr/bin/env python3
"""SimHash's text features measured on real text: the CJK shingle length, and the English
word weights at several k.

Chinese: passages of 450 characters from manpages-zh (bench/minhash/evaluate.py) and texts of
about 3,150 characters, each seven consecutive passages. For each shingling: recall at k = 3 of
copies with character edits (and, for the short texts, a 15-character advert), 200 copies each
from a fixed seed. The IDF rows weigh each token by its inverse document frequency over the
odd passages. English: the passages of evaluate.py, of 500-1,000 and of 3,000-6,000
characters, from the license and copyright files and from Python's documentation, with word
edits and a 20-word header; seen's words (text features version 2) beside caller-made word
bigrams of unit weight (what a word-order-aware feature would give). False pairs: pairs of
corpus texts within k whose exact 3-shingle Jaccard (characters, or words) is below 0.5, over
all pairs.

usage: bench/minhash/simhash_features.py OUT_DIR
writes OUT_DIR/simhash_features.md, and OUT_DIR/simhash_features.json (the English false-pair
rates of long texts, which bench/minhash/report.py sets beside evaluate.py's recall)"""
import json
import math
import random
import re
import sys
from collections import Counter
from datetime import date
from pathlib import Path

import numpy as np
import seen

import evaluate  # noqa: E402  (this folder; imports datasketch before bench/ is on the path)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from page import machine, table_rows  # noqa: E402

K = 3
ENGLISH_K = (3, 5, 6, 7)
COPIES = 200
SHORT_EDITS = (1, 3, 5, "advert")
LONG_EDITS = (5, 10, 20)


def cjk(text):
    return "".join(evaluate.CJK.findall(text))


def char_shingles(text):
    c = cjk(text)
    return {c[i:i + 3] for i in range(len(c) - 2)}


def word_shingles(text):
    w = evaluate.tokens(text)
    return {" ".join(w[i:i + 3]) for i in range(len(w) - 2)}


def idf_table(passages):
    df = Counter()
    for p in passages:
        c = cjk(p)
        df.update(set(c) | {c[i:i + 2] for i in range(len(c) - 1)})
    n = len(passages)
    return seen.IdfTable({t: math.log(n / (1 + d)) + 1 for t, d in df.items()}, default_weight=math.log(n) + 1)


def popcounts(x):
    return np.unpackbits(x.view(np.uint8)).reshape(-1, 64).sum(1)


def false_pairs(texts, fingerprints, shingles, k=K, k_max=7):
    """How many unrelated pairs lie within k, or (k=None) within each k of 0..k_max."""
    sets = [shingles(t) for t in texts]
    within = np.zeros(k_max + 1, dtype=int)
    for i in range(len(fingerprints)):
        distances = popcounts(fingerprints[i] ^ fingerprints[i + 1:])
        for j in np.nonzero(distances <= k_max)[0]:
            if evaluate.jaccard(sets[i], sets[i + 1 + j]) < 0.5:
                within[distances[j]:] += 1
    return within if k is None else int(within[k])


def chinese_copy(rng, text, edits, alphabet):
    if edits == "advert":
        at = rng.randrange(len(text))
        return text[:at] + evaluate.AD + text[at:]
    return evaluate.edit_chinese(rng, text, edits, alphabet)


def english_copy(rng, text, edits, vocabulary):
    if edits == "header":
        return " ".join(rng.choice(vocabulary) for _ in range(20)) + " " + text
    return evaluate.edit_english(rng, text, edits, vocabulary)


def distances(texts, fingerprints, edits, simhash, make_copy, rng, words):
    return np.array([seen.hamming(simhash(make_copy(rng, texts[i], edits, words)), int(fingerprints[i]))
                     for i in range(COPIES)])


def chinese_rows():
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
            cells += [f"{np.mean(distances(texts, fingerprints, e, simhash, chinese_copy, rng, alphabet) <= K):.3f}"
                      for e in edit_kinds]
            cells.append(str(false_pairs(texts, fingerprints, char_shingles)))
        rows.append(cells)
        print(" | ".join(cells), flush=True)
    return len(passages), len(long_texts), rows


def word_bigrams(text):
    """seen's fingerprint of the text's distinct word bigrams, each of weight 1."""
    w = evaluate.tokens(text)
    return seen.simhash_features({" ".join(w[i:i + 2]) for i in range(max(1, len(w) - 1))})


def english_rows():
    rows, long_rates = [], {}
    for corpus, source in (("licenses", evaluate.license_texts), ("Python docs", evaluate.python_doc_texts)):
        short = evaluate.english_passages(3000, texts=source)
        long_texts = evaluate.english_passages(3000, 3000, 6000, source)
        vocabulary = sorted({w for p in short for w in re.findall(r"[A-Za-z]{2,}", p)})
        for features, simhash in (("words (version 2)", seen.simhash), ("word bigrams", word_bigrams)):
            for length, texts in (("500-1,000", short), ("3,000-6,000", long_texts)):
                rng = random.Random(7)
                fingerprints = np.array([simhash(t) for t in texts], dtype=np.uint64)
                within = false_pairs(texts, fingerprints, word_shingles, k=None)
                copies = {e: distances(texts, fingerprints, e, simhash, english_copy, rng, vocabulary)
                          for e in (1, 3, 5, "header")}
                pairs = len(texts) * (len(texts) - 1) // 2
                for k in ENGLISH_K:
                    rows.append([corpus, features, length, str(k), f"{within[k]:,} of {pairs:,}", f"{within[k] / pairs:.1e}"]
                                + [f"{np.mean(d <= k):.3f}" for d in copies.values()])
                    print(" | ".join(rows[-1]), flush=True)
                    if features.startswith("words") and length.startswith("3"):
                        long_rates.setdefault(corpus, {})[k] = within[k] / pairs
    return rows, long_rates


def main():
    out = Path(sys.argv[1])
    passages, long_texts, chinese = chinese_rows()
    english, long_rates = english_rows()
    (out / "simhash_features.json").write_text(json.dumps(long_rates, indent=1))
    pairs_short = passages * (passages - 1) // 2
    pairs_long = long_texts * (long_texts - 1) // 2
    lines = [
        "# SimHash: text features on real text",
        "",
        f"Measured {date.today()} on {machine()}, by `bench/minhash/simhash_features.py`, with the default "
        "options but for the n-gram length named.",
        "",
        "## Chinese: the CJK shingle length",
        "",
        f"Corpus: {passages:,} Chinese passages of 450 characters from manpages-zh, and "
        f"{long_texts:,} texts of about 3,150 characters (seven consecutive passages). Recall: "
        f"{COPIES} copies per column from seed 7, found when within k = {K} of their original. "
        f"False pairs: corpus pairs within k = {K} whose character 3-shingle Jaccard is below 0.5, "
        f"out of {pairs_short:,} (450) and {pairs_long:,} (3,150) pairs.",
        "",
        "| shingles | 450: 1 edit | 3 edits | 5 edits | advert | false pairs | "
        "3,150: 5 edits | 10 edits | 20 edits | false pairs |",
        "|---|" + "---:|" * 9,
    ]
    lines += table_rows(chinese)
    lines += [
        "",
        "## English: words (1 + ln count, stop words out) and word bigrams",
        "",
        "Corpora: passages of 500-1,000 characters and texts of 3,000-6,000 characters from Debian's "
        "license and copyright files and from the prose of Python's documentation (python3-doc), as "
        "bench/minhash/evaluate.py cuts them, up to 3,000 of each. Features: seen's own (words, text "
        "features version 2), and word bigrams of unit weight through `simhash_features`. Recall: "
        f"copies with word edits or a 20-word header, {COPIES} each from seed 7. False pairs: pairs "
        "within k whose word 3-shingle Jaccard is below 0.5, of all pairs.",
        "",
        "| corpus | features | texts (characters) | k | false pairs | rate | 1 edit | 3 edits | 5 edits | 20-word header |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += table_rows(english)
    (out / "simhash_features.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
