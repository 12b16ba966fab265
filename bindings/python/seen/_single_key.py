"""`key in filter` (and a Bloom filter's add) for the kinds whose C base SingleKeyProbe answers
it (_probe.c says why): the probe is bound to each handle the filter takes and unbound when it
closes, and keys the probe does not take (other types, a closed filter) come to
_contains_other (and _add_other), through cffi."""
from typing import Any, NoReturn, Tuple

from . import _keys
from ._native import ffi, lib
from ._probe import SingleKeyProbe
from .errors import raise_status


class ProbedKeys(SingleKeyProbe):
    """The kind sets _counting (which C tests the probe calls) and _tests, its
    contains_one_u64 and contains_one_key; _h is its handle."""

    __slots__ = ()
    _h: Any
    _counting: bool
    _tests: Tuple[Any, Any]

    def _bind(self, handle: Any) -> None:
        self._bind_probe(int(ffi.cast("uintptr_t", handle)), self._counting)

    def _contains_other(self, key: object) -> bool:
        found = _keys.call(self._tests[0], self._tests[1], self._h, key)
        if found < 0:
            raise_status(lib.SEEN_ERR_INVALID_ARGUMENT, self._h)
        return found == 1

    def _raise_status(self, status: int) -> NoReturn:
        """Raises the failure of a call the C base made on the handle (_probe.c)."""
        raise_status(status, self._h)

    def close(self) -> None:
        """Unbinds the single-key probe, then closes as every kind does (syncing a writable
        mapped filter and freeing it now rather than at garbage collection). Closing twice is
        harmless."""
        self._bind_probe(0)
        super().close()  # type: ignore[misc]
