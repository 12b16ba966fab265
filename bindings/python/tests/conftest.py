"""Shared settings: where the repo's shared files are, and a short, deterministic hypothesis
profile so the suite stays quick and the same on every run."""
import os
from pathlib import Path

from hypothesis import settings

# meson test passes these; the defaults serve a pytest run from a source checkout.
REPO = Path(__file__).resolve().parents[3]
VECTORS = Path(os.environ.get("SEEN_VECTORS", REPO / "tests" / "vectors"))
DOCS = Path(os.environ.get("SEEN_DOCS", REPO / "docs"))
PACKAGE_SOURCE = Path(os.environ.get("SEEN_PACKAGE_SOURCE", REPO / "bindings" / "python" / "seen"))

settings.register_profile("seen", max_examples=60, deadline=None, derandomize=True)
settings.load_profile("seen")
