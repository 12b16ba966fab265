"""DESIGN's layers, checked on the sources: data flows down, so core includes nothing of
capi/ or cli/, capi/ nothing of cli/, and nothing shipped includes bench/ or tests/ (code
the CLI and the benchmarks share lives below both, as core/baselines and core/splitmix.h do)."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("core", "capi", "cli", "integrations", "bindings")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def includes(folder):
    """(file, included path) for every quoted #include of the C and C++ files under folder."""
    for path in sorted((ROOT / folder).rglob("*")):
        if path.suffix in (".c", ".cc", ".cpp", ".h", ".hpp") and path.is_file():
            for included in INCLUDE.findall(path.read_text(errors="replace")):
                yield path.relative_to(ROOT), included


@pytest.mark.parametrize("folder, forbidden", [
    *((folder, ("bench/", "tests/")) for folder in SHIPPED),
    ("core", ("capi/", "cli/")),
    ("capi", ("cli/",)),
])
def test_no_include_goes_up_or_into_bench_or_tests(folder, forbidden):
    wrong = [f"{path} includes {included}" for path, included in includes(folder)
             if included.startswith(forbidden)]
    assert wrong == []
