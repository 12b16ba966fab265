"""A text file's keys as `seen build` reads them (cli/lines.h, docs/distributed.md), in the
Arrow layout: one data buffer and n + 1 offsets, cut out of the file's bytes with numpy
rather than one Python bytes object per line.

A line ends at \\n. One \\r before it (or before the end of the file) is dropped, and a line
left empty is no key. Every other byte is part of its key as it is: a bare \\r inside a
line, a byte order mark at the start of the file, invalid UTF-8."""
import importlib
from typing import Any


def split(content: bytes) -> Any:
    """The keys of one file's bytes, as an Arrow large_binary array."""
    np = importlib.import_module("numpy")
    pa = importlib.import_module("pyarrow")
    data = np.frombuffer(content, dtype=np.uint8)
    newlines = np.flatnonzero(data == ord("\n"))
    starts = np.concatenate(([0], newlines + 1))
    ends = np.concatenate((newlines, [len(data)]))
    before_end = data[np.maximum(ends - 1, 0)] if len(data) else np.zeros(1, np.uint8)
    ends -= (ends > starts) & (before_end == ord("\r"))
    kept = ends > starts
    starts, ends = starts[kept], ends[kept]
    # Each kept byte is inside [start, end) of one line: +1 at its start, -1 past its end.
    # No line ends where another starts (a \n lies between), so the marks never collide.
    inside = np.zeros(len(data) + 1, dtype=np.int8)
    inside[starts] = 1
    inside[ends] = -1
    keys = data[np.cumsum(inside[:-1], dtype=np.int8).astype(bool)]
    offsets = np.concatenate(([0], np.cumsum(ends - starts))).astype(np.int64)
    return pa.Array.from_buffers(pa.large_binary(), len(starts),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(keys)])
