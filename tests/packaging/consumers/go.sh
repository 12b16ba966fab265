# The Go consumer (sourced by scripts/release-check, after the C one, whose install it links): a
# fresh module runs the README's commands, which unpack the source tarball and require the
# binding at the release's tag with a replace to it, and builds and runs the first example of
# docs/go.md, printing what its // Output: comment says, with only PKG_CONFIG_PATH set.
# go_consumer DIST VERSION GO CACHE   (GO empty: skipped; CACHE: Go's build cache)
go_consumer() {
  local dist=$1 version=$2 go=$3 cache=$4 dir="$scratch/go"
  if [ -z "$go" ]; then skip "a Go module with the README's require and replace" "no Go toolchain"; return; fi
  mkdir -p "$dir" && ln -sfn "$dist" "$dir/dist"
  python3 - "$root/docs/go.md" "$dir" <<'PY'
# The first example of docs/go.md as a program, and the output its // Output: comment states.
import re, sys
block = re.search(r"```go\n(.*?)```", open(sys.argv[1]).read(), re.S).group(1)
body, _, output = block.partition("\t// Output:\n")
expected = "".join(line.strip()[3:] + "\n" for line in output.splitlines() if line.strip().startswith("//"))
program = ('package main\n\nimport (\n\t"fmt"\n\n\tseen "github.com/seen-bloom/seen/bindings/go"\n)\n\n'
           + body.replace("func Example() {", "func main() {") + "}\n")
open(sys.argv[2] + "/main.go", "w").write(program)
open(sys.argv[2] + "/expected", "w").write(expected)
PY
  printf 'module example.com/app\n\ngo 1.20\n' > "$dir/go.mod"
  check "a Go module with the README's require and replace (v$version) builds and runs the example of docs/go.md" \
    sh -c 'cd "$0" && export PATH="$(dirname "$1"):$PATH" GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOCACHE="$2" &&
      sh -ec "$3" && PKG_CONFIG_PATH="$4" go run . > printed && diff expected printed' \
    "$dir" "$go" "$cache" "$(readme_block 'Go: a module')" "$(seen_pc_dir)"
}
