# Types of the cffi extension that Meson builds from build_native.py: cffi objects are
# dynamic, so the checker sees them as Any.
from typing import Any

ffi: Any
lib: Any
