"""The README's C example compiles against seen.h and libseen, runs, and prints what it says."""
import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIB_DIR = Path(os.environ.get("SEEN_LIB_DIR", ROOT / "build"))


def test_readme_c_example(tmp_path):
    readme = (ROOT / "README.md").read_text()
    source = re.search(r"```c\n(.*?)```", readme, re.S).group(1)
    (tmp_path / "example.c").write_text(source)
    # include/ has the installed layout, seen/seen.h (tests/packaging compiles the example
    # against a real install).
    compiler = os.environ.get("CC", "cc")
    subprocess.run([compiler, "-std=c11", "-Wall", "-Werror", "example.c", f"-I{ROOT / 'include'}",
                    f"-L{LIB_DIR}", "-lseen", "-o", "example"], cwd=tmp_path, check=True)
    env = {**os.environ, "LD_LIBRARY_PATH": str(LIB_DIR)}
    result = subprocess.run(["./example"], cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert result.stdout == "1 0\n"
    assert (tmp_path / "ids.seen").read_bytes()[:5] == b"\x89SEEN"
