"""Errors: each seen_status has its class and message, corrupt input is named precisely, and
misuse (bad arguments, NULL handles, read-only writes) fails cleanly instead of crashing."""
import pytest

import seen
from seen import errors
from seen._native import ffi, lib
from refusals import corrupt


@pytest.fixture(scope="module")
def good():
    f = seen.BloomFilter(1000, 0.01, seed=5)
    f.update(range(500))
    return f.to_bytes()


EXPECTED_CLASSES = {
    "SEEN_ERR_INVALID_ARGUMENT": seen.InvalidArgumentError,
    "SEEN_ERR_NO_MEMORY": seen.NoMemoryError,
    "SEEN_ERR_IO": seen.SeenIOError,
    "SEEN_ERR_BAD_MAGIC": seen.BadMagicError,
    "SEEN_ERR_UNSUPPORTED_VERSION": seen.UnsupportedVersionError,
    "SEEN_ERR_TRUNCATED": seen.TruncatedError,
    "SEEN_ERR_BAD_CHECKSUM": seen.BadChecksumError,
    "SEEN_ERR_INCONSISTENT": seen.InconsistentError,
    "SEEN_ERR_WRONG_KIND": seen.WrongKindError,
    "SEEN_ERR_TOO_LARGE": seen.TooLargeError,
    "SEEN_ERR_READ_ONLY": seen.ReadOnlyError,
    "SEEN_ERR_INCOMPATIBLE": seen.IncompatibleError,
    "SEEN_ERR_BUFFER_TOO_SMALL": seen.BufferTooSmallError,
    "SEEN_ERR_INTERNAL": seen.InternalError,
    "SEEN_ERR_NOT_FOUND": seen.NotFoundError,
}


@pytest.mark.parametrize("status", range(1, 16))
def test_every_status_raises_its_own_class(status):
    name = ffi.string(lib.seen_status_string(status)).decode()
    with pytest.raises(EXPECTED_CLASSES[name]) as raised:
        errors.raise_status(status, errors.error_slot())
    assert raised.value.status == status and raised.value.status_name == name


def test_an_unknown_status_is_still_a_seen_error():
    with pytest.raises(seen.SeenError, match="SEEN_ERR_UNKNOWN_STATUS"):
        errors.raise_status(99, errors.error_slot())


@pytest.mark.parametrize("mutate, error, detail", [
    (lambda d: b"", seen.TruncatedError, "0 bytes"),
    (lambda d: d[:32], seen.TruncatedError, "header alone"),
    (lambda d: d[:-1], seen.TruncatedError, "declares"),
    (lambda d: corrupt(d, 0, 0x00), seen.BadMagicError, "magic"),
    (lambda d: corrupt(d, 8, 2), seen.UnsupportedVersionError, "major version 2"),
    (lambda d: corrupt(d, 23, 0x7F), seen.TooLargeError, "params_size"),
    (lambda d: corrupt(d, 64 + 16, 6), seen.BadChecksumError, "header"),  # the seed
    (lambda d: corrupt(d, len(d) - 1, d[-1] ^ 1), seen.BadChecksumError, "payload"),
    (lambda d: d + b"\x00", seen.InconsistentError, "after the declared end"),
])
def test_corrupt_bytes_raise_their_own_error(good, mutate, error, detail):
    bad = mutate(good)
    for load in (seen.BloomFilter.from_bytes, seen.BloomFilter.view):
        with pytest.raises(error, match=detail) as raised:
            load(bad)
        assert isinstance(raised.value, (seen.FormatError, seen.TooLargeError))
        assert raised.value.status_name in str(raised.value)
        assert raised.value.detail


def test_a_file_with_a_corrupt_payload_names_the_file(good, tmp_path):
    path = tmp_path / "corrupt.seen"
    path.write_bytes(corrupt(good, len(good) - 1, good[-1] ^ 1))
    with pytest.raises(seen.BadChecksumError, match="corrupt.seen"):
        seen.BloomFilter.open(path)
    assert 1 in seen.BloomFilter.open(path, verify=False)  # the header is still fine


@pytest.mark.parametrize("fpr", [0.0, 1.0, -0.5, 2.0, float("nan")])
def test_an_fpr_outside_0_1_is_an_invalid_argument(fpr):
    with pytest.raises(seen.InvalidArgumentError, match="fpr") as raised:
        seen.BloomFilter(1000, fpr)
    assert isinstance(raised.value, ValueError)
    assert raised.value.status == lib.SEEN_ERR_INVALID_ARGUMENT


@pytest.mark.parametrize("make", [seen.BloomFilter, seen.CountingFilter])
@pytest.mark.parametrize("args", [(-1, 0.01), (1000, 0.01, -1), (1000, 0.01, 2**64)])
def test_sizes_and_seeds_outside_u64_are_invalid_arguments(make, args):
    """A ValueError as every bad argument is, not the OverflowError cffi raises."""
    with pytest.raises(seen.InvalidArgumentError, match="outside its C type"):
        make(*args)


def test_an_absurd_size_is_refused_without_allocating():
    with pytest.raises((seen.TooLargeError, seen.NoMemoryError)):
        seen.BloomFilter(2**62, 1e-9)


def test_the_c_api_reports_null_handles_and_arrays():
    assert lib.seen_bloom_add_u64(ffi.NULL, ffi.NULL, 0) == lib.SEEN_ERR_INVALID_ARGUMENT
    assert lib.seen_bloom_contains_one_u64(ffi.NULL, 1) == -1
    f = seen.BloomFilter(100, 0.01)
    assert lib.seen_bloom_add_u64(f._h, ffi.NULL, 0) == lib.SEEN_OK  # n == 0 may pass NULL
    assert lib.seen_bloom_add_u64(f._h, ffi.NULL, 3) == lib.SEEN_ERR_INVALID_ARGUMENT
    err = ffi.new("seen_error*")
    lib.seen_bloom_last_error(f._h, err)
    assert b"ids is NULL" in ffi.string(err.message)
    assert lib.seen_bloom_contains_one_key(f._h, ffi.NULL, 4) == -1


def test_decreasing_offsets_are_refused_not_read():
    f = seen.BloomFilter(100, 0.01)
    data = ffi.new("uint8_t[]", b"abcd")
    offsets = ffi.new("uint64_t[]", [0, 4, 1])
    assert lib.seen_bloom_add_keys(f._h, data, offsets, 2) == lib.SEEN_ERR_INVALID_ARGUMENT
    with pytest.raises(seen.InvalidArgumentError, match="offsets"):
        errors.check(lib.seen_bloom_add_keys(f._h, data, offsets, 2), f._h)
