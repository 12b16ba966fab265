"""Where the CLI reads and writes: `-` is stdin wherever a file is read (a filter to query,
inspect or merge, the keys among query's arguments, a key file), stdin is read once, option
errors name -o as it was typed, and output paths are checked before a long run starts."""
import json
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
    # The second time names the spelling it was given in, whichever that is.
    message = run("build", "--capacity", 10, "-", "-o", "a", "--output", "b", expect=2).stderr.decode()
    assert "--output is given twice" in message
    message = run("build", "--capacity", 10, "-", "--output", "a", "-o", "b", expect=2).stderr.decode()
    assert "-o is given twice" in message and "--output" not in message.splitlines()[0]


def test_an_empty_value_never_takes_the_next_argument(tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_text("a\n")
    message = run("build", "--capacity=", keys, "-o", tmp_path / "f.seen", expect=2).stderr.decode()
    assert "--capacity needs a value after =" in message


def test_switches_take_no_value_and_unknown_options_are_named_as_typed(built):
    assert b"--json takes no value" in run("info", "--json=yes", built, expect=2).stderr
    message = run("info", "--jsn=1", built, expect=2).stderr.decode()
    assert "unknown option --jsn " in message


def test_a_key_file_may_come_from_stdin(tmp_path):
    """A key piped from a secret store never touches the disk; stdin cannot then also give
    the keys to add or to query."""
    key = b"00112233445566778899aabbccddeeff\n"
    keys = tmp_path / "keys.txt"
    keys.write_bytes(b"alpha\nbeta\n")
    out = tmp_path / "keyed.seen"
    run("build", "--capacity", 100, "--key-file", "-", keys, "-o", out, stdin=key)
    assert run("query", "--key-file", "-", out, "alpha", "zeta", stdin=key).stdout == b"alpha\tseen\nzeta\tnew\n"
    assert json.loads(run("info", "--json", "--key-file", "-", out, stdin=key).stdout)["keyed"] is True
    assert b"stdin: " in run("query", "--key-file", "-", out, "alpha", stdin=b"short\n", expect=1).stderr
    for twice in (("build", "--capacity", 100, "--key-file", "-", "-", "-o", out),
                  ("query", "--key-file", "-", out),  # no keys given: they would come from stdin
                  ("query", "--key-file", "-", "-", "alpha"),
                  ("merge", "--key-file", "-", "-", out, "-o", tmp_path / "m.seen"),
                  ("info", "--key-file", "-", "-"),
                  ("dedupe", "-", "-")):
        assert b"stdin can be read once" in run(*twice, stdin=key, expect=2).stderr, twice


@pytest.mark.parametrize("option", ["--csv", "--svg"])
def test_simulate_checks_its_outputs_before_the_run(tmp_path, option):
    """The default run simulates 100,000 users for many seconds: a bad path fails at once."""
    start = time.monotonic()
    missing = tmp_path / "no-such-dir" / "out"
    message = run("simulate", "exposure", option, missing, expect=1).stderr.decode()
    assert str(missing) in message and "simulating" not in message
    assert time.monotonic() - start < 5
    assert b"is a directory" in run("simulate", "exposure", option, tmp_path, expect=1).stderr


def test_merge_checks_its_output_before_reading_its_inputs(tmp_path, built):
    """Two big filters take a while to read (or come down a pipe): a bad output path is
    reported first, not after they were read."""
    bad = tmp_path / "bad.seen"
    bad.write_bytes(b"not a filter")
    missing = tmp_path / "no-such-dir" / "merged.seen"
    message = run("merge", bad, built, "-o", missing, expect=1).stderr.decode()
    assert str(missing) in message and str(bad) not in message
    message = run("merge", "-", built, "-o", tmp_path, stdin=built.read_bytes(), expect=1).stderr.decode()
    assert "is a directory" in message


def test_build_checks_its_output_before_reading_the_keys(tmp_path):
    missing = tmp_path / "no-such-dir" / "f.seen"
    assert str(missing) in run("build", "--capacity", 10, "-", "-o", missing, stdin=b"a\n", expect=1).stderr.decode()
    existing = tmp_path / "keep.txt"
    existing.write_text("kept")
    run("build", "--capacity", 10, existing, "-o", tmp_path / "new.seen")
    assert existing.read_text() == "kept" and not (tmp_path / "no-such-dir").exists()
