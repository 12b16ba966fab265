# The C consumer (sourced by scripts/release-check): the README's commands unpack the install
# tree under $HOME/.local (HOME is a scratch directory) and compile the README's C example with
# pkg-config, which then runs without LD_LIBRARY_PATH (seen.pc's rpath); a second program shows
# that the installed seen_inline.h probes as libseen answers, a third that the installed seen.h
# and libseen say the release's version.
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
  # seen_inline.h beside seen.h: its probe compiles from the install tree and answers as the library.
  cat > "$dir/inline.c" <<'C'
#include <stdio.h>
#include <seen/seen_inline.h>
int main(void) {
  seen_bloom* f;
  seen_bloom_probe probe;
  if (seen_bloom_create(1000, SEEN_DEFAULT_FPR, 0, &f, NULL) != SEEN_OK) return 1;
  for (uint64_t id = 0; id < 1000; ++id) seen_bloom_add_one_u64(f, id, NULL);
  if (seen_bloom_probe_init(f, &probe) != SEEN_OK) return 1;
  int agree = 0;
  for (uint64_t id = 0; id < 2000; ++id) {
    agree += seen_bloom_probe_contains_u64(&probe, id) == seen_bloom_contains_one_u64(f, id);
  }
  printf("%d\n", agree);
  seen_bloom_free(f);
  return 0;
}
C
  check "the installed seen_inline.h compiles and its probe answers as libseen for 2000 ids" sh -c '
    cd "$0" && cc inline.c $(PKG_CONFIG_PATH="$1" pkg-config --cflags --libs seen) -o inline &&
    [ "$(./inline)" = 2000 ]' "$dir" "$(seen_pc_dir)"
  IFS=. read -r major minor patch <<<"$version"
  check "the installed seen.h and libseen say $version" sh -c '
    cd "$0" && cc version.c $(PKG_CONFIG_PATH="$1" pkg-config --cflags --libs seen) -o version &&
    [ "$(./version)" = "$2" ]' "$dir" "$(seen_pc_dir)" "$version $((major * 10000 + minor * 100 + patch))"
}

# The directory of the seen.pc that the C route unpacked, for the routes that build on it.
seen_pc_dir() {
  dirname "$(find "$scratch/home/.local" -name seen.pc | head -1)"
}
