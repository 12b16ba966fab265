/* JNI glue for io.seen.NativeBloom: translates Java arrays and buffers into seen.h calls and
 * nothing else. Every native on a filter returns a seen_status (or a value that encodes one); the
 * Java side turns failures into SeenException with the message the filter keeps (lastError).
 * A native without a handle throws its failure itself (jni_common.h).
 *
 * Heap arrays are pinned with GetPrimitiveArrayCritical, which may stall the garbage collector,
 * so each pin is short: batches go through jni_batch.c in chunks. When a JNI call fails it has
 * already raised a Java exception: return at once. */
#include "jni_batch.h"

#define FILTER(h) ((seen_bloom*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeBloom_##name

JNI(jint, versionNumber)(JNIEnv* env, jclass cls) {
  return (jint)seen_version_number();
}

JNI_BLOCKED_CREATE(seen_bloom)

/* Sizing without a filter; out: bytes, k (sizeFor) or raw bits of fpr, k (predictFpp). A
 * failure is thrown here (checked). */
JNI(jint, sizeFor)(JNIEnv* env, jclass cls, jlong expected, jdouble fpp, jlongArray out) {
  uint64_t bytes = 0;
  uint32_t k = 0;
  seen_error err;
  seen_status s = seen_bloom_size_for((uint64_t)expected, fpp, &bytes, &k, &err);
  if (s != SEEN_OK) return checked(env, s, &err);
  jlong v[2] = {(jlong)bytes, k};
  (*env)->SetLongArrayRegion(env, out, 0, 2, v);
  return SEEN_OK;
}

JNI(jint, predictFpp)(JNIEnv* env, jclass cls, jlong expected, jlong bytes, jlongArray out) {
  double fpr = 0;
  uint32_t k = 0;
  seen_error err;
  seen_status s = seen_bloom_predict_fpr((uint64_t)expected, (uint64_t)bytes, &fpr, &k, &err);
  if (s != SEEN_OK) return checked(env, s, &err);
  jlong v[2] = {double_bits(fpr), k};
  (*env)->SetLongArrayRegion(env, out, 0, 2, v);
  return SEEN_OK;
}

JNI(jint, merge)(JNIEnv* env, jclass cls, jlong dst, jlong src) {
  return seen_bloom_merge(FILTER(dst), FILTER(src));
}

JNI(jint, intersect)(JNIEnv* env, jclass cls, jlong dst, jlong src) {
  return seen_bloom_intersect(FILTER(dst), FILTER(src));
}

/* A flag_or_status: 1 if a covers b, 0 if not, below 0 a failed status. */
JNI(jint, covers)(JNIEnv* env, jclass cls, jlong a, jlong b) {
  int covers = 0;
  seen_status s = seen_bloom_covers(FILTER(a), FILTER(b), &covers);
  return flag_or_status(s, (uint8_t)covers);
}

/* A Bloom filter has no counters. */
#define NO_COUNTERS(info_or_stats) 0
JNI_BLOCKED_FIGURES(seen_bloom, NO_COUNTERS, NO_COUNTERS)

/* Block ranges (io.seen.BloomBlocks): arrays are copied in and out rather than pinned, since
 * hashing a batch costs far more than copying it, and no critical section is held. */
#define BLOCKS_OOM "no native memory for a copy of the batch"

/* blocks[0 .. len) = the block each of ids[off .. off+len) maps to. */
JNI(jint, blocksOfLongs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len,
                         jlongArray blocks) {
  uint64_t* copy = alloc_or_throw(env, 2 * (size_t)len * sizeof *copy, BLOCKS_OOM);
  if (copy == NULL) return JAVA_EXCEPTION_PENDING;
  seen_status s = SEEN_OK;
  (*env)->GetLongArrayRegion(env, ids, off, len, (jlong*)copy);
  if (!(*env)->ExceptionCheck(env)) {
    s = seen_bloom_blocks_of_u64(FILTER(h), copy, (size_t)len, copy + len);
    if (s == SEEN_OK) (*env)->SetLongArrayRegion(env, blocks, 0, len, (jlong*)(copy + len));
  }
  free(copy);
  return (*env)->ExceptionCheck(env) ? JAVA_EXCEPTION_PENDING : (jint)s;
}

/* blocks[0 .. count) = the block of each key first .. first+count of data and offsets (which
 * Java checked), with the offsets widened to the uint64 layout seen.h takes. */
JNI(jint, blocksOfKeys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                        jint first, jint count, jlongArray blocks) {
  jint* narrow = alloc_or_throw(env, ((size_t)count + 1) * sizeof *narrow, BLOCKS_OOM);
  if (narrow == NULL) return JAVA_EXCEPTION_PENDING;
  (*env)->GetIntArrayRegion(env, offsets, first, count + 1, narrow);
  size_t base = (*env)->ExceptionCheck(env) ? 0 : (size_t)narrow[0];
  size_t bytes = (*env)->ExceptionCheck(env) ? 0 : (size_t)narrow[count] - base;
  uint64_t* wide = alloc_or_throw(env, (2 * (size_t)count + 1) * sizeof *wide + bytes,
                                  BLOCKS_OOM);
  seen_status s = SEEN_OK;
  if (wide != NULL && !(*env)->ExceptionCheck(env)) {
    uint64_t* out = wide + count + 1;
    uint8_t* keys = (uint8_t*)(out + count);
    for (jint i = 0; i <= count; i++) wide[i] = (uint64_t)narrow[i] - base;
    (*env)->GetByteArrayRegion(env, data, (jsize)base, (jsize)bytes, (jbyte*)keys);
    if (!(*env)->ExceptionCheck(env)) {
      s = seen_bloom_blocks_of_keys(FILTER(h), keys, wide, (size_t)count, out);
      if (s == SEEN_OK) (*env)->SetLongArrayRegion(env, blocks, 0, count, (jlong*)out);
    }
  }
  free(wide);
  free(narrow);
  return (*env)->ExceptionCheck(env) ? JAVA_EXCEPTION_PENDING : (jint)s;
}

/* out[0 .. 64 * count) = blocks [first, first + count). */
JNI(jint, readBlocks)(JNIEnv* env, jclass cls, jlong h, jlong first, jint count, jbyteArray out) {
  uint8_t* copy = alloc_or_throw(env, 64 * (size_t)count, BLOCKS_OOM);
  if (copy == NULL) return JAVA_EXCEPTION_PENDING;
  seen_status s = seen_bloom_read_blocks(FILTER(h), (uint64_t)first, (uint64_t)count, copy);
  if (s == SEEN_OK) (*env)->SetByteArrayRegion(env, out, 0, 64 * count, (jbyte*)copy);
  free(copy);
  return (*env)->ExceptionCheck(env) ? JAVA_EXCEPTION_PENDING : (jint)s;
}

/* ORs blocks (64 * count bytes) into the filter's blocks from first on. */
JNI(jint, orBlocks)(JNIEnv* env, jclass cls, jlong h, jlong first, jint count, jbyteArray blocks) {
  uint8_t* copy = alloc_or_throw(env, 64 * (size_t)count, BLOCKS_OOM);
  if (copy == NULL) return JAVA_EXCEPTION_PENDING;
  seen_status s = SEEN_OK;
  (*env)->GetByteArrayRegion(env, blocks, 0, 64 * count, (jbyte*)copy);
  if (!(*env)->ExceptionCheck(env)) {
    s = seen_bloom_or_blocks(FILTER(h), (uint64_t)first, (uint64_t)count, copy);
  }
  free(copy);
  return (*env)->ExceptionCheck(env) ? JAVA_EXCEPTION_PENDING : (jint)s;
}
