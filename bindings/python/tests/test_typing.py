"""The package's type hints: mypy --strict accepts the package and correct use of it, and
rejects wrong use (so the hints say something)."""
import subprocess
import sys

import pytest

from conftest import PACKAGE_SOURCE

GOOD_USE = """
import numpy
import seen

def unseen(f: seen.BloomFilter, emails: list[str]) -> list[str]:
    found = f.contains_many(emails)
    return [e for e, hit in zip(emails, found) if not hit]

with seen.BloomFilter(1000, 0.01, seed=1) as f:
    f.add("a"); f.add(b"b"); f.add(3); f.add(numpy.uint64(4))
    f.update(["c", 4])
    f.add_many(numpy.arange(10, dtype=numpy.uint64))
    f |= seen.BloomFilter(1000, 0.01, seed=1)
    size: int = f.size_bytes
    rate: float = f.expected_fpr
    data: bytes = f.to_bytes()
    g: seen.BloomFilter = seen.BloomFilter.from_bytes(data) | f
    try:
        seen.BloomFilter.open("/missing", read_only=True)
    except seen.SeenError as e:
        status: int = e.status
"""

WRONG_USE = {
    "count": 'import seen\nseen.BloomFilter("many", 0.01)\n',
    "key": "import seen\nseen.BloomFilter(10, 0.01).add(1.5)\n",
    "property": "import seen\nx: str = seen.BloomFilter(10, 0.01).k\n",
    "merge": "import seen\nf = seen.BloomFilter(10, 0.01)\nf |= {1}\n",
}


def mypy(tmp_path, *targets):
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
         "--cache-dir", str(tmp_path / "cache"), *targets],
        cwd=PACKAGE_SOURCE.parent, capture_output=True, text=True)


def test_mypy_accepts_the_package_and_correct_use(tmp_path):
    good = tmp_path / "good.py"
    good.write_text(GOOD_USE)
    result = mypy(tmp_path, "seen", str(good))
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_rejects_wrong_use(tmp_path):
    paths = []
    for name, code in WRONG_USE.items():
        paths.append(tmp_path / f"wrong_{name}.py")
        paths[-1].write_text(code)
    result = mypy(tmp_path, *map(str, paths))
    flagged = {line.split(":")[0] for line in result.stdout.splitlines() if ": error:" in line}
    assert flagged == set(map(str, paths)), result.stdout
