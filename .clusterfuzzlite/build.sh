#!/bin/bash -eu
# Builds the per-kind fuzz targets into $OUT for ClusterFuzzLite and OSS-Fuzz, which set CC,
# CXX, CFLAGS and CXXFLAGS (sanitizer and coverage flags included) and run this from the
# source tree (docs/FUZZING.md, "Continuous fuzzing"). Each target gets its checked-in seed
# corpus (tests/fuzz/corpus/<kind>) and its libFuzzer options.

# Highway and xxHash, static and position-independent (as the core and the shim are: libseen.so
# is made of the same objects), built with the same flags, and CLI11's headers (the CLI's
# argument parser), from the sources the Dockerfile fetched. Without them (a dry run of this
# script on a development machine) the system's are used.
if [ -d "$SRC/highway" ]; then
  deps=$WORK/deps
  cmake -S "$SRC/highway" -B "$WORK/highway" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_INSTALL_PREFIX="$deps" -DCMAKE_INSTALL_LIBDIR=lib \
    -DHWY_ENABLE_TESTS=OFF -DHWY_ENABLE_EXAMPLES=OFF -DHWY_ENABLE_CONTRIB=OFF
  cmake --build "$WORK/highway" --parallel "$(nproc)"
  cmake --install "$WORK/highway"
  make -C "$SRC/xxhash" -j"$(nproc)" CFLAGS="$CFLAGS -fPIC" libxxhash.a
  make -C "$SRC/xxhash" PREFIX="$deps" install_libxxhash.a install_libxxhash.includes install_libxxhash.pc
  cmake -S "$SRC/cli11" -B "$WORK/cli11" -DCMAKE_INSTALL_PREFIX="$deps" \
    -DCLI11_BUILD_TESTS=OFF -DCLI11_BUILD_EXAMPLES=OFF -DCLI11_BUILD_DOCS=OFF
  cmake --install "$WORK/cli11"
  # CLI11, being header-only, installs its CLI11.pc under share/.
  export PKG_CONFIG_PATH=$deps/lib/pkgconfig:$deps/share/pkgconfig
fi

# The sanitizers' runtimes (and libc++, where CXXFLAGS ask for it) are linked by the same flags.
export LDFLAGS="${LDFLAGS:-} $CXXFLAGS"
# -Dfuzz=enabled adds libFuzzer's instrumentation and links each target with it; the
# sanitizers come from the flags above, so meson's own b_sanitize stays off.
meson setup "$WORK/build" -Dbuildtype=plain -Db_lundef=false -Dfuzz=enabled -Dtests=enabled \
  -Dpython=disabled -Djava=disabled -Dgo=disabled -Dredis=disabled -Dspark=disabled
kinds=(bloom counting scalable window store simhash_index minhash_index)
ninja -C "$WORK/build" "${kinds[@]/#/tests/fuzz_}"

# Each target holds what it needs of seen, linked statically (tests/meson.build), and of
# Highway and xxHash, whose static libraries are the only ones built above.
for kind in "${kinds[@]}"; do
  cp "$WORK/build/tests/fuzz_$kind" "$OUT/"
  rm -f "$OUT/fuzz_${kind}_seed_corpus.zip"
  zip -jq "$OUT/fuzz_${kind}_seed_corpus.zip" "tests/fuzz/corpus/$kind"/*
  printf '[libfuzzer]\nmax_len = 70000\n' > "$OUT/fuzz_$kind.options"
done
