#!/usr/bin/env python3
"""How often `seen dedupe` puts documents that are not duplicates in one group, on natural
corpora: every text of bench/minhash/evaluate.py's Chinese and English corpora as it is, with
no copies made. Each pair of documents in one near group, and each pair dedupe reports
nearest across groups, is judged by its exact 3-shingle
Jaccard (words; characters for Chinese): a duplicate at >= 0.9, unrelated below 0.5, and
between the two neither. Precision is duplicates over duplicates and unrelated pairs.

usage: bench/minhash/dedupe_precision.py SEEN_CLI OUT_DIR     writes OUT_DIR/dedupe.md"""
import itertools
import json
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

import evaluate  # noqa: E402  (this folder; imports datasketch before bench/ is on the path)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from page import machine, table_rows, verdict  # noqa: E402

METHODS = (("simhash", "--k", "3"), ("minhash", "--threshold", "0.8"), ("minhash", "--threshold", "0.6"))


def char_shingles(text):
    c = "".join(evaluate.CJK.findall(text))
    return {c[i:i + 3] for i in range(len(c) - 2)}


def word_shingles(text):
    w = evaluate.tokens(text)
    return {" ".join(w[i:i + 3]) for i in range(len(w) - 2)}


def doc_of(label):
    return int(label.rsplit(":", 1)[1]) - 1


def near_groups(cli, path, method):
    """The near groups of `seen dedupe` as lists of line numbers (0-based), representative
    first, and the pairs it reports nearest across groups."""
    out = subprocess.run([cli, "dedupe", "--method", *method, "--field", "text", str(path)],
                         capture_output=True, text=True, check=True, timeout=3600).stdout
    groups, apart = {}, []
    for line in out.splitlines():
        fields = line.split("\t")
        if fields[0] == "near":
            groups.setdefault(fields[1], []).append(doc_of(fields[2]))
        elif fields[0] == "nearest":
            apart.append([doc_of(fields[1]), doc_of(fields[2])])
    return list(groups.values()), apart


def judge(groups, shingle_sets):
    duplicates = unrelated = between = 0
    for group in groups:
        for a, b in itertools.combinations(group, 2):
            j = evaluate.jaccard(shingle_sets[a], shingle_sets[b])
            duplicates += j >= 0.9
            unrelated += j < 0.5
            between += 0.5 <= j < 0.9
    return duplicates, unrelated, between


def main():
    cli, out = sys.argv[1], Path(sys.argv[2])
    corpora = [("Chinese, manpages-zh passages", evaluate.chinese_passages(4000), char_shingles),
               ("English, license and copyright passages", evaluate.english_passages(3000), word_shingles),
               ("English, license and copyright texts of 3,000-8,000 characters",
                evaluate.english_passages(3000, low=3000, high=8000), word_shingles)]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, texts, shingles in corpora:
            path = Path(tmp) / "docs.jsonl"
            path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
            sets = [shingles(t) for t in texts]
            for method in METHODS:
                groups, apart = near_groups(cli, path, method)
                duplicates, unrelated, between = judge(groups + apart, sets)
                judged = duplicates + unrelated
                precision = duplicates / judged if judged else 1.0
                rows.append([name, f"{len(texts):,}", " ".join(method), str(len(groups)),
                             str(sum(len(g) for g in groups)), str(len(apart)), str(duplicates), str(between),
                             str(unrelated), f"{precision:.4f}", verdict(precision >= 0.99)])
                print(" | ".join(rows[-1]), flush=True)
    lines = [
        "# `seen dedupe` on natural corpora: precision",
        "",
        f"Measured {date.today()} on {machine()}, by `bench/minhash/dedupe_precision.py`.",
        "",
        "The texts of bench/minhash/evaluate.py's corpora as they are, no copies added. Every pair of "
        "documents in one near group, and each pair reported nearest across groups, is judged by "
        "its exact 3-shingle Jaccard (characters for "
        "Chinese, words for English): a duplicate at >= 0.9, unrelated below 0.5, neither in "
        "between. Precision: duplicates / (duplicates + unrelated). Target: >= 0.99.",
        "",
        "| corpus | texts | method | near groups | documents in them | nearest pairs apart | duplicate pairs | between | unrelated pairs | precision | |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    lines += table_rows(rows)
    (out / "dedupe.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
