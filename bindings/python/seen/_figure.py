"""figure: a read-only attribute that is one field of what an object reads about itself (a
filter's params or stats, a window's info), so that a class names each figure in one line
rather than in a property of three."""
from typing import Any, Callable, Generic, NoReturn, Optional, TypeVar, overload

T = TypeVar("T")


class figure(Generic[T]):  # lower case, as property is: it stands in for one
    """The field of the attribute's own name (or `field`) of read(obj), as convert makes it.
    read is a function of the object: operator.methodcaller("_params") or
    operator.attrgetter("info")."""

    def __init__(self, read: Callable[[Any], Any], convert: Callable[[Any], T], doc: str = "",
                 field: Optional[str] = None) -> None:
        self._read = read
        self._convert = convert
        self._field = field
        self._name = field
        self.__doc__ = doc or None

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name
        if self._field is None:
            self._field = name

    @overload
    def __get__(self, obj: None, owner: Optional[type] = None) -> "figure[T]": ...

    @overload
    def __get__(self, obj: object, owner: Optional[type] = None) -> T: ...

    def __get__(self, obj: Optional[object], owner: Optional[type] = None) -> Any:
        if obj is None:
            return self
        return self._convert(getattr(self._read(obj), str(self._field)))

    def __set__(self, obj: object, value: NoReturn) -> NoReturn:
        """Read-only, as a property without a setter (also where an instance has a __dict__)."""
        raise AttributeError(f"{type(obj).__name__}.{self._name} is read-only")
