"""What every results page says the same way: the machine it was measured on, and a figure
against its target, and the rows of its tables."""
import subprocess


def machine() -> str:
    """The CPU model and core count, e.g. "AMD EPYC, 2 cores"."""
    model = next((line.split(":", 1)[1].strip()
                  for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
                  if line.startswith("Model name")), "unknown CPU")
    cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    return f"{model}, {cores} cores"


def table_rows(rows) -> list:
    """Markdown table lines, one per row of cells (strings)."""
    return ["| " + " | ".join(r) + " |" for r in rows]


def verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"
