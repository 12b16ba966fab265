"""mypy --strict on the package and on snippets of its use, for the typing tests: correct use
must pass, and every snippet of wrong use must be flagged."""
import subprocess
import sys

from conftest import PACKAGE_SOURCE


def mypy(tmp_path, *targets, options=()):
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", *options,
         "--cache-dir", str(tmp_path / "cache"), *targets],
        cwd=PACKAGE_SOURCE.parent, capture_output=True, text=True)


def assert_accepted(tmp_path, good_use, *targets, options=()):
    """mypy passes targets and the code good_use together."""
    good = tmp_path / "good.py"
    good.write_text(good_use)
    result = mypy(tmp_path, *targets, str(good), options=options)
    assert result.returncode == 0, result.stdout + result.stderr


def assert_each_flagged(tmp_path, wrong_use, options=()):
    """mypy reports an error in every snippet of wrong_use (name -> code), each in its file."""
    paths = []
    for name, code in wrong_use.items():
        paths.append(tmp_path / f"wrong_{name}.py")
        paths[-1].write_text(code)
    result = mypy(tmp_path, *map(str, paths), options=options)
    flagged = {line.split(":")[0] for line in result.stdout.splitlines() if ": error:" in line}
    assert flagged == set(map(str, paths)), result.stdout
