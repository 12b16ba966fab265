"""`seen dedupe` through real files: lines, whole files, JSONL fields, its output and errors."""
import itertools
import json
import random
import subprocess

from cli_run import SEEN, run as run_seen

ARTICLE = (
    "国家统计局今天发布数据，今年前三季度国内生产总值同比增长百分之五点二，其中第三季度增长百分之四点九。"
    "分产业看，第一产业增加值增长百分之四点一，第二产业增长百分之四点四，第三产业增长百分之六。"
    "消费对经济增长的贡献率明显提高，居民收入继续增加，就业形势总体稳定，物价水平保持温和。"
)
# The same article with a source line appended and one word changed: a near duplicate.
EDITED = ARTICLE.replace("今天", "今日") + "（来源：新华社）"
# The article is 138 characters, short for SimHash's default 2-grams (docs/simhash.md: EDITED
# is 4 bits away); single characters keep it within k = 3.
SHORT_TEXTS = ("--method", "simhash", "--ngram", 1)
OTHER = (
    "The city council voted on Tuesday to expand the bus network, adding three routes to the "
    "northern districts and extending evening service until midnight."
)


def run(*args, expect=0):
    return run_seen("dedupe", *args, expect=expect).stdout.decode()


def groups(out, kind, k=3):
    found, distances = {}, {}
    for line in out.splitlines():
        fields = line.split("\t")
        if fields[0] == kind:
            found.setdefault(fields[1], []).append(fields[2])
            if kind == "near":
                distances.setdefault(fields[1], []).append(int(fields[3].removeprefix("d=")))
    # Each near group starts with its representative; every member is within k of it.
    for ds in distances.values():
        assert ds[0] == 0 and max(ds) <= k, ds
    return sorted(found.values())


def test_lines_give_exact_and_near_groups(tmp_path):
    path = tmp_path / "docs.txt"
    # Line 2 differs from line 1 only in width, case and punctuation: an exact duplicate.
    lines = [ARTICLE, ARTICLE.replace("，", ",") + "  ", OTHER, EDITED, "", OTHER.upper()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = run(*SHORT_TEXTS, path)
    p = str(path)
    assert groups(out, "exact") == [[f"{p}:1", f"{p}:2"], [f"{p}:3", f"{p}:6"]]
    assert groups(out, "near") == [[f"{p}:1", f"{p}:2", f"{p}:4"]]
    assert "5 documents, 3 distinct; 2 exact groups (4 documents), 1 near groups within k=3 (3 documents)" in out


def test_k0_keeps_only_identical_fingerprints(tmp_path):
    path = tmp_path / "docs.txt"
    path.write_text(f"{ARTICLE}\n{EDITED}\n", encoding="utf-8")
    assert groups(run("--method", "simhash", "--k", 0, path), "near") == []


def test_per_file_documents(tmp_path):
    a, b, c = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    a.write_text(ARTICLE + "\n第二段。\n", encoding="utf-8")
    b.write_text(ARTICLE + "\r\n第二段\n", encoding="utf-8")
    c.write_text(OTHER, encoding="utf-8")
    out = run("--method", "simhash", "--per-file", a, b, c)
    assert groups(out, "exact") == [[str(a), str(b)]]
    assert "3 documents" in out


def test_jsonl_field(tmp_path):
    path = tmp_path / "docs.jsonl"
    rows = [
        {"id": 1, "body": ARTICLE, "meta": {"tags": ["a", "}"]}},
        {"body": EDITED, "id": 2},
        {"id": 3},  # no field: not a document
        {"body": OTHER},
    ]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=bool(i % 2)) for i, r in enumerate(rows)) + "\n")
    out = run(*SHORT_TEXTS, "--field", "body", path)
    assert groups(out, "near") == [[f"{path}:1", f"{path}:2"]]
    assert "3 documents" in out


def test_bad_utf8_nul_and_empty_inputs_are_documents_not_errors(tmp_path):
    path = tmp_path / "raw.txt"
    path.write_bytes(b"hello\xffworld\nhello world\nnul\x00byte\n\n")
    out = run(path)
    assert groups(out, "exact") == [[f"{path}:1", f"{path}:2"]]
    # Binary data is reported once, naming where it starts, and still read.
    result = subprocess.run([SEEN, "dedupe", path], capture_output=True, timeout=120)
    assert result.stderr.decode().count("binary") == 1 and f"{path}:3" in result.stderr.decode()
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert "0 documents" in run(empty)


def test_errors(tmp_path):
    run(expect=2)
    docs = tmp_path / "docs.txt"
    docs.write_text("one\ntwo\n")
    # An unknown option is refused by name and does not take the next argument as its value.
    result = subprocess.run([SEEN, "dedupe", "--K", "5", docs], capture_output=True)
    assert result.returncode == 2 and b"--K" in result.stderr
    assert b"directory" in subprocess.run([SEEN, "dedupe", tmp_path], capture_output=True).stderr
    run("--per-file", "--field", "body", docs, expect=2)
    jsonl = tmp_path / "docs.jsonl"
    jsonl.write_text('{"body": "x"}\n{"body": "y"}\n')
    result = subprocess.run([SEEN, "dedupe", "--field", "nope", jsonl], capture_output=True)
    assert result.returncode == 1 and b"nope" in result.stderr
    run("--k", 8, "x", expect=2)
    run("--ngram", 0, "x", expect=2)
    run(tmp_path / "missing.txt", expect=1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    result = subprocess.run([SEEN, "dedupe", "--field", "body", bad], capture_output=True)
    assert result.returncode == 1 and b"bad.jsonl:1" in result.stderr


def test_minhash_groups_short_copies_that_simhash_misses(tmp_path):
    """Short lines, one with an 8-word header: MinHash groups the three copies around their
    first line, each at Jaccard >= 0.7 (j=1.00 for the representative); the default, auto at
    0.6, picks MinHash for texts this short; SimHash at k=3 misses the headed copy."""
    base = ("the committee met on tuesday to review the annual budget and approved the new library "
            "hours for the summer along with the repaving of elm street and a grant for the youth league")
    header = "please read the notice below before the meeting"
    lines = [base, base.replace("summer", "winter"), header + " " + base, OTHER]
    path = tmp_path / "lines.txt"
    path.write_text("\n".join(lines) + "\n")
    out = run("--method", "minhash", "--threshold", "0.7", path)
    near = [line.split("\t") for line in out.splitlines() if line.startswith("near")]
    assert [n[2].rsplit(":", 1)[1] for n in near] == ["1", "2", "3"]
    assert near[0][3] == "j=1.00" and all(float(n[3][2:]) >= 0.7 for n in near)
    # The defaults are auto and 0.6: what bench/results/dedupe_recall.md measures.
    default = run(path)
    assert "at Jaccard >= 0.60 (minhash)" in default and ":3\t" in default
    assert "(default 0.6)" in run("--help"), "the help states the default the summary reports"
    simhash = run("--method", "simhash", path)
    assert "within k=3" in simhash and ":3\t" not in simhash
    assert "--method" in subprocess.run([SEEN, "dedupe", "--method", "x", path], capture_output=True).stderr.decode()


def words(rng, n):
    return ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(8)) for _ in range(n)]


def edited(rng, text, positions):
    out = text.split()
    for i in positions:
        out[i] = words(rng, 1)[0]
    return " ".join(out)


def pair_jaccard(a, b):
    """The exact Jaccard of two texts' sets of adjacent word pairs: dedupe's shingles for
    texts of lower-case ASCII words."""
    sa, sb = ({(w[i], w[i + 1]) for i in range(len(w) - 1)} for w in (a.split(), b.split()))
    return len(sa & sb) / len(sa | sb)


def near_groups(out):
    found = {}
    for line in out.splitlines():
        fields = line.split("\t")
        if fields[0] == "near":
            found.setdefault(fields[1], []).append((int(fields[2].rsplit(":", 1)[1]) - 1, float(fields[3][2:])))
    return list(found.values())


def test_an_edited_copy_joins_its_original_before_a_looser_look_alike(tmp_path):
    """A passage P, a look-alike X near it (J 0.66) but not near the copy C (J 0.51), a close
    twin B of P, and C, a 6-word-edit copy of P (J 0.78), in that order. Taking texts in input
    order put X in P's group first and left C out of it; complete linkage joins P and B, then
    C, and X stays alone."""
    rng = random.Random(7)
    p = " ".join(words(rng, 100))
    x = edited(rng, p, range(5, 100, 10))
    b = edited(rng, p, [50])
    c = edited(rng, p, [10, 20, 30, 60, 70, 80])
    texts = [p, x, b, c]
    assert round(pair_jaccard(p, x), 2) == 0.66 and round(pair_jaccard(c, x), 2) == 0.51
    path = tmp_path / "docs.txt"
    path.write_text("\n".join(texts) + "\n")
    groups = near_groups(run("--method", "minhash", "--threshold", "0.6", path))
    assert [[i for i, _ in g] for g in groups] == [[0, 2, 3]]
    assert [j for _, j in groups[0]] == [1.0, round(pair_jaccard(p, b), 2), round(pair_jaccard(p, c), 2)]


def nearest_pairs(out):
    """dedupe's `nearest` lines: (line, line, j) with 0-based lines."""
    return [(int(f[1].rsplit(":", 1)[1]) - 1, int(f[2].rsplit(":", 1)[1]) - 1, float(f[3][2:]))
            for f in (line.split("\t") for line in out.splitlines()) if f[0] == "nearest"]


def test_a_copy_kept_out_by_its_originals_look_alike_is_reported_with_it(tmp_path):
    """A passage P, a look-alike L of it (7 words edited, J 0.75) and C, an 8-word-edit copy
    of P (J 0.72) that is not near L (J 0.56). Complete linkage joins P and L first and must
    keep C out; dedupe still reports C with P, its most similar near text, on a `nearest` line,
    and never reports a pair it grouped or one below the threshold."""
    rng = random.Random(3)
    p = " ".join(words(rng, 100))
    look_alike = edited(rng, p, range(10, 80, 10))
    c = edited(rng, p, range(5, 100, 12))
    assert [round(pair_jaccard(*pair), 2) for pair in [(p, look_alike), (p, c), (c, look_alike)]] == [0.75, 0.72, 0.56]
    path = tmp_path / "docs.txt"
    path.write_text("\n".join([c, OTHER, look_alike, p]) + "\n")
    out = run(path)
    assert [[i for i, _ in g] for g in near_groups(out)] == [[2, 3]]
    assert nearest_pairs(out) == [(0, 3, round(pair_jaccard(p, c), 2))]
    assert out.rstrip().endswith("; 1 nearest pairs apart")
    assert "nearest" not in run("--method", "simhash", path)


def test_every_two_members_of_a_minhash_group_are_near(tmp_path):
    """Random corpora of passages and copies with 0 to 40 of 60 words replaced, at several
    thresholds: every pair of one near group has the exact pair Jaccard of the threshold or
    more, and each member's j= is its exact Jaccard with the first."""
    for seed, threshold in [(1, 0.5), (2, 0.6), (3, 0.7), (4, 0.8)]:
        rng = random.Random(seed)
        passages = [" ".join(words(rng, 60)) for _ in range(12)]
        texts = passages + [edited(rng, rng.choice(passages), rng.sample(range(60), rng.randrange(41)))
                            for _ in range(60)]
        rng.shuffle(texts)
        path = tmp_path / f"docs{seed}.txt"
        path.write_text("\n".join(texts) + "\n")
        out = run("--method", "minhash", "--threshold", threshold, path)
        groups = near_groups(out)
        assert groups, seed
        group_of = {i: n for n, group in enumerate(groups) for i, _ in group}
        for a, b, j in nearest_pairs(out):
            assert group_of.get(a, -1 - a) != group_of.get(b, -1 - b), (seed, a, b)
            assert abs(j - pair_jaccard(texts[a], texts[b])) <= 0.005 + 1e-9 and j >= threshold, (seed, a, b)
        for group in groups:
            first = texts[group[0][0]]
            for i, j in group:
                assert abs(j - pair_jaccard(first, texts[i])) <= 0.005 + 1e-9, (seed, group)
            for (a, _), (b, _) in itertools.combinations(group, 2):
                assert pair_jaccard(texts[a], texts[b]) >= threshold, (seed, a, b)


def test_a_dense_group_of_close_copies_is_one_group(tmp_path):
    """1,500 copies of one 100-word passage, 2 words edited in each (every pair at J 0.85 or
    so): one group of all of them, as complete linkage requires, without comparing each copy
    with every other one through the index."""
    rng = random.Random(11)
    base = " ".join(words(rng, 100))
    texts = [edited(rng, base, rng.sample(range(100), 2)) for _ in range(1500)]
    path = tmp_path / "copies.txt"
    path.write_text("\n".join(texts) + "\n")
    groups = near_groups(subprocess.run([SEEN, "dedupe", path], capture_output=True, check=True,
                                        timeout=120, text=True).stdout)
    assert [len(g) for g in groups] == [1500]
    assert min(j for _, j in groups[0]) >= 0.6
