# TAP helpers for the consumer tests, which use seen from projects outside the repository as
# its users would. Sourced; each script prints its own plan.
# check "description" COMMAND...: one TAP line; the command's output becomes diagnostics on
# failure, when check returns 1 and counts it in $failures.
n=0 failures=0
check() {
  local what=$1; shift
  n=$((n + 1))
  local out
  if out=$("$@" 2>&1); then
    echo "ok $n - $what"
  else
    echo "not ok $n - $what"
    # The first lines say what went wrong; a linker's list of every undefined symbol does not.
    sed -n '1,40s/^/# /p; 41{s/.*/# (cut: the output has more lines)/p;q}' <<<"$out"
    failures=$((failures + 1))
    return 1
  fi
}

# A scratch directory outside the repository, removed on exit.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/seen-consumer.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# without_libhwy COMMAND...: runs the command where Debian's libhwy cannot be loaded (an empty
# file bind-mounted over it in a private mount namespace), as on a host without libhwy1.
without_libhwy() {
  local real
  real=$(readlink -f "$(/sbin/ldconfig -p | awk '/libhwy\.so\.1 /{print $NF; exit}')")
  unshare -m sh -c 'mount --bind /dev/null "$0" && exec "$@"' "$real" "$@"
}

# The first fenced block of a language in a Markdown file.
first_block() {
  python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[2]).read()
print(re.search(r"```" + re.escape(sys.argv[1]) + r"\n(.*?)```", text, re.S).group(1), end="")
PY
}

# Proves that without_libhwy hides it: a plain dlopen of libhwy.so.1 must fail there.
libhwy_is_hidden() {
  ! without_libhwy python3 -c 'import ctypes; ctypes.CDLL("libhwy.so.1")' 2>/dev/null
}

# readme_block HEADING [LANGUAGE]: the first fenced block of LANGUAGE (sh unless told) under the
# README's "### HEADING", which tells users how to install that route. The consumer checks run
# exactly these commands, so that the README cannot drift from what is checked.
readme_block() {
  python3 - "$(dirname "${BASH_SOURCE[0]}")/../../README.md" "$1" "${2:-sh}" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
section = re.search(r"^### " + re.escape(sys.argv[2]) + r"\n(.*?)(?=^##)", text, re.S | re.M)
block = section and re.search(r"```" + re.escape(sys.argv[3]) + r"\n(.*?)```", section.group(1), re.S)
if not block:
    sys.exit(f"README.md has no {sys.argv[3]} block under ### {sys.argv[2]}")
print(block.group(1), end="")
PY
}
