"""`seen info` on counting and scalable filter files: the parameters it reports are those the
shared vectors' scripts (tests/vectors/*.vec) built them with, and a damaged file is an error
naming it."""
import json
import os
import shlex
import subprocess
from pathlib import Path

SEEN = os.environ.get("SEEN_CLI", "build/cli/seen")
VECTORS = Path(__file__).parent / "vectors"


def run(*args, expect=0):
    result = subprocess.run([SEEN, *map(str, args)], capture_output=True, timeout=60)
    assert result.returncode == expect, result.stderr.decode()
    return result


def info(path):
    return json.loads(run("info", "--json", path).stdout)


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
    assert (got["kind"], got["checksum"], got["keyed"]) == ("counting", "verified", "no")
    assert got["expected_items"] == int(script["expected_items"])
    assert got["target_fpr"] == float(script["fpr"])
    assert got["seed"] == int(script["seed"])
    # Each block is 64 bytes of presence bits and 256 of 4-bit counters (docs/FORMAT.md).
    assert got["bytes"] == got["blocks"] * (64 + 256)
    assert 0 < got["predicted_fpr"] < float(script["fpr"]) and 0 < got["fill_ratio"] < 1


def test_scalable_filter_info_gives_what_the_script_built():
    script = script_settings("scalable_u64")
    got = info(VECTORS / "scalable_u64.seen")
    assert (got["kind"], got["checksum"], got["keyed"]) == ("scalable", "verified", "no")
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
    path = tmp_path / "kind99.seen"
    # The kind is the header's u32 at byte 12 (docs/FORMAT.md); the checksums are resealed.
    subprocess.run(shlex.split(os.environ["SEEN_SET_FIELD"]) + [str(VECTORS / "bloom_u64.seen"), "12", "63000000",
                                                             str(path)], check=True, timeout=60)
    message = run("info", path, expect=1).stderr.decode()
    assert str(path) in message and "kind 99" in message, message
