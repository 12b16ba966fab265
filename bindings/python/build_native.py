"""Emits the C source of the cffi extension `seen._native` (API mode, out of line).

Meson runs this at build time and compiles the output against libseen; nothing here compiles
or links by itself. The declarations are seen.h itself, read at build time and cut to what
cffi's parser takes (no comments, no preprocessor lines, no export macro): a new C function is
callable from Python without a hand edit here. In API mode the C compiler checks every one of
them against the real seen.h.

usage: build_native.py SEEN_H OUTPUT.c
"""
import re
import sys

import cffi


def declarations(header: str) -> str:
    """The C declarations of seen.h in the dialect cffi's cdef parses."""
    text = re.sub(r"/\*.*?\*/", "", header, flags=re.S)
    # The part seen.h keeps for #define SEEN_EXPERIMENTAL is not the binding's to call.
    text = re.sub(r"#ifdef SEEN_EXPERIMENTAL.*?#endif", "", text, flags=re.S)
    kept = []
    for line in text.splitlines():
        constant = re.match(r"#define (SEEN_\w+) \d+u?\s*$", line)
        if constant:
            kept.append(f"#define {constant.group(1)} ...")  # the compiler fills in the value
        elif not line.startswith("#"):
            kept.append(line)
    text = "\n".join(kept)
    text = re.sub(r'extern "C" \{|^\}\s*$', "", text, flags=re.M)
    return text.replace("SEEN_API ", "")


def main(header: str, output: str) -> None:
    ffibuilder = cffi.FFI()
    with open(header, encoding="utf-8") as f:
        ffibuilder.cdef(declarations(f.read()))
    ffibuilder.set_source("seen._native", '#include "seen.h"')
    ffibuilder.emit_c_code(output)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
