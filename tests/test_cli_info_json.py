"""`seen info --json` is strict JSON for every file kind, saturated or not, under any path:
no inf or nan (an estimate a saturated filter cannot make is null), every string escaped,
`keyed` a boolean. The samples are the fuzzers' (tests/sample_files.h: one of every kind)
and the shared vectors; a saturated Bloom filter is built here by the CLI."""
import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from cli_run import SEEN, run
VECTORS = Path(__file__).parent / "vectors"
# A quote, a backslash, a tab, a newline and a control character: each must be escaped.
HOSTILE = 'q"uote \\back\ttab\nline\x01'


def strict_json(text):
    """json.loads that refuses NaN, Infinity and -Infinity, which Python accepts by default."""
    def refuse(name):
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, parse_constant=refuse)


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    folder = tmp_path_factory.mktemp("samples")
    subprocess.run(shlex.split(os.environ["SEEN_SAMPLE_FILES"]) + [str(folder)], check=True, timeout=60)
    return sorted(folder.glob("*.seen")) + sorted(VECTORS.glob("*.seen"))


@pytest.fixture(scope="module")
def saturated(tmp_path_factory):
    """One block (512 bits) with 20,000 keys in it: every bit is set."""
    folder = tmp_path_factory.mktemp("saturated")
    keys = folder / "keys.txt"
    keys.write_text("".join(f"key{i}\n" for i in range(20000)))
    out = folder / "full.seen"
    summary = run("build", "--capacity", 1, "--fpr", 0.5, keys, "-o", out).stdout.decode()
    assert "inf" not in summary and "too many distinct keys" in summary, summary
    return out


def test_every_kind_is_strict_json_under_a_hostile_path(tmp_path, samples):
    kinds = set()
    for n, sample in enumerate(samples):
        path = tmp_path / f"{n}{HOSTILE}{sample.name}"
        shutil.copy(sample, path)
        info = strict_json(run("info", "--json", path).stdout)
        assert info["file"] == str(path)
        assert info["checksum"] == "verified"
        if "keyed" in info:
            assert info["keyed"] is False, sample
        kinds.add(info["kind"])
    assert len(kinds) == 7, kinds


def test_a_saturated_filter_has_no_estimate(tmp_path, saturated):
    path = tmp_path / f"{HOSTILE}.seen"
    shutil.copy(saturated, path)
    info = strict_json(run("info", "--json", path).stdout)
    assert info["file"] == str(path)
    assert info["fill_ratio"] == 1 and info["approx_items"] is None
    assert "approx items        unknown (saturated)\n" in run("info", path).stdout.decode()


def test_a_path_that_is_not_utf8_still_gives_json(tmp_path, saturated):
    path = os.path.join(os.fsencode(tmp_path), b"\xff\xfe.seen")
    shutil.copy(saturated, path)
    info = strict_json(run("info", "--json", path).stdout)
    assert info["file"].endswith("\ufffd\ufffd.seen")
