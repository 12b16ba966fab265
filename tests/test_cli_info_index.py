"""`seen info` on SimHash and MinHash index files and on counting and scalable filter files:
what it reports (for filters, the parameters the shared vectors' scripts built them with), and
its errors on damaged files and unknown kinds, which name the file and the part or field that
is wrong.

The CLI does not write index files: the SimHash index is the fuzzers' sample (tests/sample_files.h:
50 fingerprints, max_k = 6), the MinHash index the shared vector tests/vectors/minhash_index.seen."""
import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from cli_run import SEEN, run
VECTORS = Path(__file__).parent / "vectors"
# Offsets of params fields (docs/FORMAT.md): params follow the 64-byte header.
SIMHASH_MAX_K = 64 + 8
MINHASH_BINS, MINHASH_THRESHOLD = 64 + 8, 64 + 24


def info(path):
    return json.loads(run("info", "--json", path).stdout)


def error(path):
    return run("info", path, expect=1).stderr.decode()


@pytest.fixture(scope="module")
def simhash_index(tmp_path_factory):
    samples = tmp_path_factory.mktemp("samples")
    subprocess.run(shlex.split(os.environ["SEEN_SAMPLE_FILES"]) + [str(samples)], check=True, timeout=60)
    return samples / "simhash_index.seen"


def set_field(source, offset, value: bytes, out):
    """A copy of source with value at offset and its checksums made right again."""
    subprocess.run(shlex.split(os.environ["SEEN_SET_FIELD"]) + [str(source), str(offset), value.hex(), str(out)],
                   check=True, timeout=60)
    return out


def flipped(source, offset, out):
    data = bytearray(source.read_bytes())
    data[offset] ^= 1
    out.write_bytes(bytes(data))
    return out


def test_info_describes_a_simhash_index(simhash_index):
    fields = info(simhash_index)
    assert (fields["kind"], fields["checksum"]) == ("simhash index", "verified")
    assert (fields["documents"], fields["max_k"], fields["blocks"]) == (50, 6, 7)
    assert fields["bytes"] >= 50 * 8 and fields["primary_bits"] >= 10
    table = run("info", simhash_index).stdout.decode()
    assert "documents           50\n" in table and "max k               6\n" in table


def test_info_describes_a_minhash_index():
    """The vector's script sets the options and adds 41 texts under 40 ids, one removed."""
    vec = (VECTORS / "minhash_index.vec").read_text().splitlines()
    ids = {line.split()[1] for line in vec if line.startswith("add ")}
    ids -= {line.split()[1] for line in vec if line.startswith("remove ")}
    fields = info(VECTORS / "minhash_index.seen")
    assert (fields["kind"], fields["checksum"], fields["keyed"]) == ("minhash index", "verified", False)
    assert (fields["documents"], fields["bins"], fields["shingle"], fields["seed"]) == (len(ids), 128, 2, 9)
    assert fields["threshold"] == 0.7
    assert fields["bands"] * fields["rows"] <= fields["bins"] and fields["bands"] > 1
    assert fields["bytes"] >= len(ids) * fields["bins"]
    assert "threshold           0.7\n" in run("info", VECTORS / "minhash_index.seen").stdout.decode()


def test_a_damaged_payload_names_the_file_and_the_checksum(tmp_path, simhash_index):
    minhash_index = VECTORS / "minhash_index.seen"
    for source in (simhash_index, minhash_index):
        bad = flipped(source, source.stat().st_size - 3, tmp_path / f"bad-{source.name}")
        message = error(bad)
        assert str(bad) in message and "payload checksum" in message, message
    short = tmp_path / "short.seen"
    short.write_bytes(minhash_index.read_bytes()[:200])
    assert str(short) in error(short)


def test_a_bad_field_is_named_even_under_a_right_checksum(tmp_path, simhash_index):
    minhash_index = VECTORS / "minhash_index.seen"
    cases = [(simhash_index, SIMHASH_MAX_K, (9).to_bytes(4, "little"), "max_k 9"),
             (minhash_index, MINHASH_BINS, (100).to_bytes(4, "little"), "bins 100"),
             (minhash_index, MINHASH_THRESHOLD, bytes(8), "threshold")]
    for n, (source, offset, value, field) in enumerate(cases):
        bad = set_field(source, offset, value, tmp_path / f"field-{n}.seen")
        message = error(bad)
        assert str(bad) in message and field in message, message


def script_settings(name):
    """The `name value` settings a vector script starts with (before its first operation)."""
    settings = {}
    for line in (VECTORS / f"{name}.vec").read_text().splitlines():
        if line.startswith("#"):
            continue
        field, value = line.split(" ", 1)
        if field.startswith(("add_", "query_", "remove_")):
            break
        settings[field] = value
    return settings


def test_counting_filter_info_gives_what_the_script_built():
    script = script_settings("counting_u64")
    got = info(VECTORS / "counting_u64.seen")
    assert (got["kind"], got["checksum"], got["keyed"]) == ("counting", "verified", False)
    assert got["expected_items"] == int(script["expected_items"])
    assert got["target_fpr"] == float(script["fpr"])
    assert got["seed"] == int(script["seed"])
    # Each block is 64 bytes of presence bits and 256 of 4-bit counters (docs/FORMAT.md).
    assert got["bytes"] == got["blocks"] * (64 + 256)
    assert 0 < got["predicted_fpr"] < float(script["fpr"]) and 0 < got["fill_ratio"] < 1


def test_scalable_filter_info_gives_what_the_script_built():
    script = script_settings("scalable_u64")
    got = info(VECTORS / "scalable_u64.seen")
    assert (got["kind"], got["checksum"], got["keyed"]) == ("scalable", "verified", False)
    assert got["initial_capacity"] == int(script["capacity"])
    assert (got["target_fpr"], got["growth"], got["tightening"]) == (
        float(script["fpr"]), float(script["growth"]), float(script["tightening"]))
    assert got["seed"] == int(script["seed"])
    # 1,500 ids from a capacity of 100 doubling: 100 + 200 + 400 + 800 holds them in 4.
    assert got["sub_filters"] == 4
    assert 1400 <= got["items"] <= 1500, "ids that already looked present are not counted"
    assert 0 < got["predicted_fpr"] <= float(script["fpr"])
    text = run("info", VECTORS / "scalable_u64.seen").stdout.decode()
    assert "sub filters         4" in text


def test_a_damaged_filter_file_is_an_error_naming_it(tmp_path):
    for name in ("counting_u64", "scalable_u64"):
        data = bytearray((VECTORS / f"{name}.seen").read_bytes())
        data[-1] ^= 0x40
        path = tmp_path / f"{name}.seen"
        path.write_bytes(bytes(data))
        message = run("info", path, expect=1).stderr.decode()
        assert str(path) in message and "checksum" in message, message


def test_a_kind_this_build_does_not_know_is_named(tmp_path):
    # The kind is the header's u32 at byte 12 (docs/FORMAT.md).
    path = set_field(VECTORS / "bloom_u64.seen", 12, (99).to_bytes(4, "little"), tmp_path / "kind99.seen")
    message = run("info", path, expect=1).stderr.decode()
    assert str(path) in message and "kind 99" in message, message
