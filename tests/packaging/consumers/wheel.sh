# The Python consumer (sourced by scripts/release-check): for the oldest and the newest Python
# that requires-python admits here, the README's commands install the wheel in a fresh venv,
# where the examples of docs/python.md pass with Debian's libhwy hidden. With one abi3 wheel,
# this is what shows that it serves every admitted Python.
# wheel_consumer DIST VERSION
wheel_consumer() {
  local dist=$1 version=$2 v py
  python3 "$root/scripts/admitted-pythons" "$root/pyproject.toml" | sed -n '1p;$p' | uniq > "$scratch/pythons"
  while read -r v py <&3; do
    check "Python $v: the README's commands install the wheel in a fresh venv" \
      wheel_installs "$dist" "$v" "$py"
    check "Python $v: seen.__version__ and the installed metadata are $version" \
      "$scratch/python-$v/venv/bin/python" -c 'import importlib.metadata as m, seen, sys
assert seen.__version__ == m.version("seen") == sys.argv[1], (seen.__version__, m.version("seen"))' "$version"
    check "Python $v: the examples of docs/python.md pass where libhwy is hidden" \
      without_libhwy sh -c 'cd "$0" && venv/bin/python -c "$1" "$2"' "$scratch/python-$v" '
import doctest, sys
r = doctest.testfile(sys.argv[1], module_relative=False,
                     optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
sys.exit(r.failed != 0 or r.attempted < 20)' "$root/docs/python.md"
  done 3< "$scratch/pythons"
}

# wheel_installs DIST X.Y PYTHON: the README's Python block, run where `python3` is PYTHON.
wheel_installs() {
  local dir="$scratch/python-$2"
  mkdir -p "$dir/bin" && ln -sf "$3" "$dir/bin/python3" && ln -sfn "$1" "$dir/dist" &&
    (cd "$dir" && PATH="$dir/bin:$PATH" sh -ec "$(readme_block 'Python: a wheel')")
}
