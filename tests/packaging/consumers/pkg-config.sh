# The C consumer (sourced by scripts/release-check): the README's commands unpack the install
# tree under $HOME/.local (HOME is a scratch directory) and compile the README's C example with
# pkg-config, which then runs without LD_LIBRARY_PATH (seen.pc's rpath); a second program shows
# that the installed seen.h and libseen say the release's version.
# pkg_config_consumer DIST VERSION
pkg_config_consumer() {
  local dist=$1 version=$2 dir="$scratch/c" major minor patch
  mkdir -p "$dir" "$scratch/home" && ln -sfn "$dist" "$dir/dist"
  first_block c "$root/README.md" > "$dir/example.c"
  check "the README's commands unpack the install tree and compile the README's C example" \
    sh -c 'cd "$0" && HOME="$1" sh -ec "$2"' "$dir" "$scratch/home" "$(readme_block 'C: pkg-config')"
  check "it runs, printing 1 0" sh -c 'cd "$0" && [ "$(./a.out)" = "1 0" ]' "$dir"
  cat > "$dir/version.c" <<'C'
#include <stdio.h>
#include <seen/seen.h>
int main(void) {
  printf("%d.%d.%d %u\n", SEEN_VERSION_MAJOR, SEEN_VERSION_MINOR, SEEN_VERSION_PATCH,
         seen_version_number());
  return 0;
}
C
  IFS=. read -r major minor patch <<<"$version"
  check "the installed seen.h and libseen say $version" sh -c '
    cd "$0" && cc version.c $(PKG_CONFIG_PATH="$1" pkg-config --cflags --libs seen) -o version &&
    [ "$(./version)" = "$2" ]' "$dir" "$(seen_pc_dir)" "$version $((major * 10000 + minor * 100 + patch))"
}

# The directory of the seen.pc that the C route unpacked, for the routes that build on it.
seen_pc_dir() {
  dirname "$(find "$scratch/home/.local" -name seen.pc | head -1)"
}
