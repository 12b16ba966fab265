"""How the CLI tests run `seen`: the binary the build made (SEEN_CLI), its exit status checked."""
import os
import subprocess

SEEN = os.environ.get("SEEN_CLI", "build/cli/seen")


def run(*args, stdin=None, expect=0, timeout=120):
    """`seen ARGS` (bytes stay bytes, anything else goes through str), with `stdin` as its input;
    fails the test, with seen's message, unless it exits with `expect`."""
    argv = [SEEN, *(a if isinstance(a, bytes) else str(a) for a in args)]
    result = subprocess.run(argv, input=stdin, capture_output=True, timeout=timeout)
    assert result.returncode == expect, result.stderr.decode(errors="replace")
    return result
