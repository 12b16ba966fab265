#!/usr/bin/env python3
"""The result pages (bench/results/*.md, each written by its own run: bench/<lang>/run,
bench/exposure_run, bench/redis/run, ...) as sections of bench/RESULTS.md.

bench/report.py appends them after the core figures. Run alone, this refreshes the pages in
bench/RESULTS.md in place after one page was re-measured, keeping the core figures above them.

usage: bench/embed_pages.py [bench/RESULTS.md]"""
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def embedded_pages():
    """Each page as lines: a `## <name>` heading, then its text one heading level down, with
    links made relative to bench/."""
    lines = []
    for page in sorted((BENCH / "results").glob("*.md")):
        body = page.read_text().replace("](", "](results/").replace("](results/results/", "](results/")
        lines += [f"## {page.stem}", ""]
        lines += ["#" + line if line.startswith("#") else line for line in body.splitlines()]
        lines.append("")
    return lines


def main():
    results = Path(sys.argv[1]) if len(sys.argv) > 1 else BENCH / "RESULTS.md"
    lines = results.read_text().splitlines()
    stems = {f"## {page.stem}" for page in (BENCH / "results").glob("*.md")}
    first_page = next((i for i, line in enumerate(lines) if line in stems), len(lines))
    results.write_text("\n".join(lines[:first_page] + embedded_pages()) + "\n")
    print(f"refreshed the pages of {results}")


if __name__ == "__main__":
    main()
