"""What the tests of every kind expect to be refused: corrupt serialized forms (the mutations
of a valid form's bytes, each with the FormatError it must raise), and calls that the state
of an object forbids."""
import pytest

import seen


def corrupt(data, offset, value):
    """data with the byte at offset set to value."""
    changed = bytearray(data)
    changed[offset] = value
    return bytes(changed)


# (mutation of valid bytes, the error it raises), for pytest.mark.parametrize.
MUTATIONS = [
    (lambda d: b"", seen.TruncatedError),
    (lambda d: d[:32], seen.TruncatedError),
    (lambda d: d[:-1], seen.TruncatedError),
    (lambda d: corrupt(d, 0, 0x00), seen.BadMagicError),
    (lambda d: corrupt(d, 8, 2), seen.UnsupportedVersionError),
    (lambda d: corrupt(d, 64 + 16, 6), seen.BadChecksumError),
    (lambda d: corrupt(d, len(d) - 1, d[-1] ^ 1), seen.BadChecksumError),
    (lambda d: d + b"\x00", seen.InconsistentError),
]


def assert_every_load_refuses(bad, error, tmp_path, kind, views=True):
    """kind.from_bytes, kind.open (of a file holding bad) and, if the kind views, kind.view
    each raise error, a FormatError that carries its detail."""
    path = tmp_path / "bad.seen"
    path.write_bytes(bad)
    loads = [(kind.from_bytes, bad), (kind.open, path)] + ([(kind.view, bad)] if views else [])
    for load, source in loads:
        with pytest.raises(error) as raised:
            load(source)
        assert isinstance(raised.value, seen.FormatError) and raised.value.detail


def assert_each_raises(error, calls, match=None):
    """Every one of calls (each taking no arguments) raises error, its message matching match
    if one is given."""
    for call in calls:
        with pytest.raises(error, match=match):
            call()


def assert_opens_read_only_for_queries(saved, path, same_answers, refused):
    """saved, written to path and opened read-only (the query role): the file holds its bytes,
    the mapped object answers as saved does, each call of refused(mapped) raises
    ReadOnlyError and changes nothing, and a copy of it is writable."""
    saved.save(path)
    assert path.read_bytes() == saved.to_bytes()
    with type(saved).open(path) as mapped:
        assert mapped.read_only and same_answers(saved, mapped)
        assert_each_raises(seen.ReadOnlyError, refused(mapped))
        assert mapped.to_bytes() == saved.to_bytes()
        assert mapped.copy().read_only is False
    assert path.read_bytes() == saved.to_bytes()
