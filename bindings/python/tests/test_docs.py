"""The examples of docs/python.md, docs/exposure.md, docs/minhash.md and of the package's
docstrings run as doctests."""
import doctest

import seen
from conftest import DOCS

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_docs_python_md_examples():
    result = doctest.testfile(str(DOCS / "python.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 20
    assert result.failed == 0


def test_docs_exposure_md_examples():
    result = doctest.testfile(str(DOCS / "exposure.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted >= 5
    assert result.failed == 0


def test_docs_minhash_md_examples():
    result = doctest.testfile(str(DOCS / "minhash.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted >= 5
    assert result.failed == 0


def test_package_docstring_examples():
    result = doctest.testmod(seen, optionflags=FLAGS)
    assert result.attempted > 0
    assert result.failed == 0


def test_sizing_docstring_examples():
    result = doctest.testmod(seen.sizing, optionflags=FLAGS)
    assert result.attempted > 0
    assert result.failed == 0
