package io.seen;

/**
 * The kinds of native object whose common calls kinds_jni.c serves once for all: each passes
 * its code, the ordinal, which must match that file's enum. Not every kind has every call: a
 * window has no file of its own, a store no serialized form, and only the filters take the
 * queries and batches of {@link NativeKinds}; a MinHash index has the calls of a handle, its
 * serialized form and its file.
 */
enum Kind {
  BLOOM(true),
  COUNTING(true),
  SCALABLE(true),
  WINDOW(false),
  STORE(true),
  MINHASH(true);

  final int code = ordinal();
  /** Whether the kind saves to a file, the way out for a form too large for a Java array. */
  final boolean saves;

  Kind(boolean saves) {
    this.saves = saves;
  }
}
