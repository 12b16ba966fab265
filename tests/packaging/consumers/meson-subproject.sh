# The Meson subproject consumer (sourced by scripts/release-check): a fresh Meson project runs
# the README's commands, which unpack the source tarball into subprojects/seen, and with the
# README's dependency() line builds the README's C example, which runs.
# meson_subproject_consumer DIST
meson_subproject_consumer() {
  local dist=$1 dir="$scratch/meson"
  mkdir -p "$dir" && ln -sfn "$dist" "$dir/dist"
  first_block c "$root/README.md" > "$dir/example.c"
  {
    echo "project('app', 'c', default_options: ['c_std=c11'])"
    readme_block 'C and C++: a Meson subproject' meson
    echo "executable('example', 'example.c', dependencies: seen)"
  } > "$dir/meson.build"
  # CCACHE_NOHASHDIR: the scratch directory's name changes each run; the sources do not.
  check "a Meson project with the README's commands and dependency() line builds the README's C example" \
    sh -c 'cd "$0" && sh -ec "$1" && { CCACHE_NOHASHDIR=1 meson setup build && CCACHE_NOHASHDIR=1 ninja -C build; } > build.log 2>&1 ||
      { tail -15 build.log; exit 1; }' \
    "$dir" "$(readme_block 'C and C++: a Meson subproject')"
  check "and runs it, printing 1 0" sh -c 'cd "$0/build" && [ "$(./example)" = "1 0" ]' "$dir"
}
