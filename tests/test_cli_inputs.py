"""Where the CLI reads and writes: `-` is stdin wherever a file is read (a filter to query,
inspect or merge, and the keys among query's arguments), stdin is read once, option errors
name -o as it was typed, and output paths are checked before a long run starts."""
import time

import pytest

from cli_run import SEEN, run


@pytest.fixture
def built(tmp_path):
    out = tmp_path / "f.seen"
    run("build", "--capacity", 1000, "-", "-o", out, stdin=b"alpha\nbeta\ngamma\n")
    return out


def test_a_dash_among_the_keys_is_the_keys_of_stdin_in_its_place(built):
    out = run("query", built, "alpha", "-", "zeta", stdin=b"beta\nomega\n").stdout
    assert out == b"alpha\tseen\nbeta\tseen\nomega\tnew\nzeta\tnew\n"


def test_a_filter_may_come_from_stdin(tmp_path, built):
    data = built.read_bytes()
    assert run("query", "-", "gamma", "delta", stdin=data).stdout == b"gamma\tseen\ndelta\tnew\n"
    assert b'"kind":"bloom"' in run("info", "--json", "-", stdin=data).stdout
    merged = tmp_path / "merged.seen"
    run("merge", "-", built, "-o", merged, stdin=data)
    assert merged.read_bytes() == data


def test_stdin_is_read_once(built):
    assert b"stdin can be read once" in run("merge", "-", "-", "-o", "x.seen", expect=2).stderr
    assert b"stdin can be read once" in run("query", "-", "a", "-", expect=2).stderr
    assert b"give the keys as arguments" in run("query", "-", expect=2).stderr


def test_bad_bytes_on_stdin_are_named_stdin():
    assert b"stdin: " in run("info", "-", stdin=b"not a filter\n", expect=1).stderr


def test_option_errors_name_o_as_typed(tmp_path):
    message = run("build", "--capacity", 10, "-", "-o", expect=2).stderr.decode()
    assert "-o needs a value" in message and "--output" not in message.splitlines()[0]
    message = run("build", "--capacity", 10, "-", "-o", "a", "-o", "b", expect=2).stderr.decode()
    assert "-o is given twice" in message
    message = run("build", "--capacity", 10, "-", "--output", "a", "--output", "b", expect=2).stderr.decode()
    assert "--output is given twice" in message


@pytest.mark.parametrize("option", ["--csv", "--svg"])
def test_simulate_checks_its_outputs_before_the_run(tmp_path, option):
    """The default run simulates 100,000 users for many seconds: a bad path fails at once."""
    start = time.monotonic()
    missing = tmp_path / "no-such-dir" / "out"
    message = run("simulate", "exposure", option, missing, expect=1).stderr.decode()
    assert str(missing) in message and "simulating" not in message
    assert time.monotonic() - start < 5
    assert b"is a directory" in run("simulate", "exposure", option, tmp_path, expect=1).stderr


def test_build_checks_its_output_before_reading_the_keys(tmp_path):
    missing = tmp_path / "no-such-dir" / "f.seen"
    assert str(missing) in run("build", "--capacity", 10, "-", "-o", missing, stdin=b"a\n", expect=1).stderr.decode()
    existing = tmp_path / "keep.txt"
    existing.write_text("kept")
    run("build", "--capacity", 10, existing, "-o", tmp_path / "new.seen")
    assert existing.read_text() == "kept" and not (tmp_path / "no-such-dir").exists()
