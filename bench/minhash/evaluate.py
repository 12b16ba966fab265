#!/usr/bin/env python3
"""Near-duplicate detection on real text with known edits: seen's SimHash and MinHash indexes
beside datasketch's MinHashLSH and the `simhash` package (bench/minhash/methods.py), on the
same texts and the same copies.

Corpora, from Debian packages the bench installs, one per length bucket: Chinese passages of
300-600 characters from manpages-zh and texts of about 3,150 characters (seven consecutive
passages); English passages of 500-1,000 characters and texts of 3,000-6,000 characters from
the licenses and copyright files under /usr/share; and, so that no English figure rests on one
corpus, passages and texts of the prose of Python's documentation (python3-doc), cut the same
way. (debian-reference-zh-cn has too little Chinese prose: about 100 passages of 450
characters that are mostly CJK.) Copies of the first 200 texts of each, from
a fixed seed: 1, 3, 5, 10 and 20 edits (characters for Chinese, words for English), the
sentences reordered (texts of two or more sentences), a 15-character advert inserted
(Chinese), a 20-word header or footer (English). A copy is found when its text is among its
matches. A false pair is a match whose exact shingle Jaccard with the copy is below 0.5
(natural duplicates among the texts, such as repeated license text, are neither true nor
false). Precision of a kind: found / (found + false pairs).

usage: bench/minhash/evaluate.py OUT_DIR [COPIES]     writes OUT_DIR/minhash.json
(COPIES: texts copied per corpus, 200 unless given; fewer for a quick look while iterating)"""
import gzip
import json
import random
import re
import statistics
import sys
import time
from pathlib import Path

from methods import all_methods, shingles, tokens  # noqa: F401  (tokens: for the sibling scripts)

# 0.8 is the usual default; 0.7 is what the English targets need: 5 edited words change up to
# 10 word pairs, and a 20-word header adds about 20, which puts an 80-word passage (500
# characters) near J = 0.78, and an estimate of 128 bins varies by about 0.04 there.
THRESHOLDS = (0.8, 0.7)
EDITS = (1, 3, 5, 10, 20)
BASES = 200
CJK = re.compile(r"[\u4e00-\u9fff]")
AD = "点击链接立即领取限时免费优惠券"
# Chinese man pages end sentences with full-width marks, and sometimes with ASCII ones.
SENTENCE_END = {"zh": re.compile(r"(?<=[。！？；.!?])\s*"), "en": re.compile(r"(?<=[.!?;])\s+")}


def jaccard(a, b):
    return len(a & b) / len(a | b) if a or b else 0.0


def manpage_texts():
    """manpages-zh's pages, roff requests and font escapes left out."""
    for page in sorted(Path("/usr/share/man/zh_CN").glob("man*/*.gz")):
        lines = gzip.open(page, "rt", encoding="utf-8", errors="replace").read().splitlines()
        yield "".join(re.sub(r"\\f.|\\[(*][^ ]*", "", l) for l in lines if not l.startswith((".", "'")))


def chinese_passages(limit):
    """Chunks of 450 characters of manpages-zh, more than half of them CJK."""
    passages = []
    for text in manpage_texts():
        for start in range(0, len(text) - 300, 450):
            chunk = text[start:start + 450]
            if len(CJK.findall(chunk)) > 0.5 * len(chunk):
                passages.append(chunk)
        if len(passages) >= limit:
            break
    return passages[:limit]


def license_texts():
    """Debian's license texts and the packages' copyright files."""
    files = sorted(Path("/usr/share/common-licenses").iterdir()) + sorted(Path("/usr/share/doc").glob("*/copyright"))
    for f in files:
        try:
            yield f.read_text(errors="replace")
        except (IsADirectoryError, PermissionError):
            continue


def python_doc_texts():
    """The reStructuredText sources of Python's documentation (python3-doc), code, directives
    and tables left out: their prose only. A grid table ("+---+") or a simple one ("=== ===")
    is mostly border: a 600-character table may hold 20 words, so 5 edited words are a quarter
    of it, which no threshold that keeps unrelated texts apart calls a copy."""
    for f in sorted(Path("/usr/share/doc").glob("python3.*/html/_sources/**/*.rst.txt")):
        paragraphs = re.split(r"\n\s*\n", f.read_text(errors="replace"))
        yield "\n\n".join(p for p in paragraphs if not p.startswith((" ", "..", ">>>", "\t", "+", "=")))


def english_passages(limit, low=500, high=1000, texts=license_texts):
    """Paragraphs of low..high characters (or, for long texts, runs of paragraphs)."""
    passages, seen_texts = [], set()
    for text in texts():
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


def edit_kind(lang, edits):
    unit = "edit" if lang == "zh" else "word edit"
    return f"{edits} {unit}{'s' if edits > 1 else ''}"


def reorder_sentences(rng, lang, text):
    """The text's sentences in another order, or None for a text of one sentence."""
    sentences = [s for s in SENTENCE_END[lang].split(text) if s]
    if len(sentences) < 2:
        return None
    order = sentences[:]
    rng.shuffle(order)
    if order == sentences:
        order.reverse()
    return ("" if lang == "zh" else " ").join(order)


def copies(lang, rng, passages):
    """(kind, base index, copy) for the first BASES passages."""
    out = []
    if lang == "zh":
        alphabet = sorted({c for p in passages for c in p if CJK.match(c)})
        edit = lambda text, n: edit_chinese(rng, text, n, alphabet)  # noqa: E731
    else:
        # Plain words: a raw "word" such as an e-mail address is several tokens.
        vocabulary = sorted({w for p in passages for w in re.findall(r"[A-Za-z]{2,}", p)})
        edit = lambda text, n: edit_english(rng, text, n, vocabulary)  # noqa: E731
    for i, text in enumerate(passages[:BASES]):
        out += [(edit_kind(lang, n), i, edit(text, n)) for n in EDITS]
        reordered = reorder_sentences(rng, lang, text)
        if reordered is not None:
            out.append(("sentence reorder", i, reordered))
        if lang == "zh":
            at = rng.randrange(len(text))
            out.append(("15-character advert", i, text[:at] + AD + text[at:]))
        else:
            extra = " ".join(rng.choice(vocabulary) for _ in range(20))
            out += [("20-word header", i, extra + " " + text), ("20-word footer", i, text + " " + extra)]
    return out


def evaluate(lang, passages, rng):
    base_shingles = [shingles(p) for p in passages]
    queries = copies(lang, rng, passages)
    results = {}
    for method in all_methods(THRESHOLDS):
        began = time.perf_counter()
        for i, p in enumerate(passages):
            method.add(i, p)
        build_s = time.perf_counter() - began
        totals, found, false_pairs, micros = {}, {}, {}, []
        for kind, base, text in queries:
            start = time.perf_counter()
            matches = method.query(text)
            micros.append(1e6 * (time.perf_counter() - start))
            copy = shingles(text)
            totals[kind] = totals.get(kind, 0) + 1
            found[kind] = found.get(kind, 0) + (base in matches)
            false_pairs[kind] = false_pairs.get(kind, 0) + sum(
                1 for m in matches if m != base and jaccard(copy, base_shingles[m]) < 0.5)
        results[method.name] = {
            "recall": {k: found[k] / totals[k] for k in totals},
            "false_pairs_by_kind": false_pairs,
            "precision": {k: found[k] / (found[k] + false_pairs[k]) if found[k] + false_pairs[k] else None
                          for k in totals},
            "false_pairs": sum(false_pairs.values()),
            "pairs_checked": len(queries) * len(passages),
            "query_median_us": statistics.median(micros),
            "build_s": build_s,
            "bytes": method.bytes(),
        }
        print(f"{lang} {len(passages)} texts: {method.name} in {time.perf_counter() - began:.1f} s",
              file=sys.stderr, flush=True)
    return {"passages": len(passages), "queries": len(queries), "copies": totals, "methods": results}


def main():
    global BASES
    out = Path(sys.argv[1])
    if len(sys.argv) > 2:
        BASES = int(sys.argv[2])
    rng = random.Random(20261124)
    zh = chinese_passages(2000)
    report = {"thresholds": THRESHOLDS,
              "zh": evaluate("zh", zh, rng),
              "zh_long": evaluate("zh", ["".join(zh[i:i + 7]) for i in range(0, len(zh) - 6, 7)], rng),
              "en": evaluate("en", english_passages(2000), rng),
              "en_long": evaluate("en", english_passages(400, 3000, 6000), rng),
              "en_python": evaluate("en", english_passages(2000, texts=python_doc_texts), rng),
              "en_python_long": evaluate("en", english_passages(400, 3000, 6000, python_doc_texts), rng)}
    (out / "minhash.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
