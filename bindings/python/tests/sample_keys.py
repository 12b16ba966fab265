"""The keys the tests of every kind put in their filters."""
import numpy

# One key of every type a filter takes: str (empty and not ASCII too), bytes-likes (empty
# too) and u64 ints (both ends, numpy's too).
EVERY_KEY_TYPE = ["alice", "", "日本語", b"\x00\xff", b"", 0, 2**64 - 1, bytearray(b"ba"),
                  memoryview(b"mv"), numpy.uint64(7)]


def with_sample_keys(f):
    """f after adding the ids 0 to 4999 and the keys "key0" to "key4999"."""
    f.update(range(5_000))
    f.update(f"key{i}" for i in range(5_000))
    return f
