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

JNI_LAST_ERROR(seen_bloom)

JNI(jint, versionNumber)(JNIEnv* env, jclass cls) {
  return (jint)seen_version_number();
}

JNI(jint, create)(JNIEnv* env, jclass cls, jlong expected, jdouble fpp, jlong seed,
                  jlongArray out) {
  seen_bloom* f = NULL;
  seen_error err;
  seen_status s = seen_bloom_create((uint64_t)expected, fpp, (uint64_t)seed, &f, &err);
  return handle_out(env, out, s, f, &err);
}

/* Keyed mode: the key's bytes are copied out of the array for the call only. */
JNI(jint, createKeyed)(JNIEnv* env, jclass cls, jlong expected, jdouble fpp, jbyteArray key,
                       jlongArray out) {
  jbyte* k = (*env)->GetByteArrayElements(env, key, NULL);
  if (k == NULL) return JAVA_EXCEPTION_PENDING;
  seen_bloom* f = NULL;
  seen_error err;
  seen_status s = seen_bloom_create_keyed((uint64_t)expected, fpp, (const uint8_t*)k,
                                          (size_t)(*env)->GetArrayLength(env, key), &f, &err);
  (*env)->ReleaseByteArrayElements(env, key, k, JNI_ABORT);
  return handle_out(env, out, s, f, &err);
}

JNI_KEYED_FORMS(seen_bloom)

JNI(void, free)(JNIEnv* env, jclass cls, jlong h) {
  seen_bloom_free(FILTER(h));
}

JNI(jint, putLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  uint8_t was_present = 0;
  seen_status s = seen_bloom_add_one_u64(FILTER(h), (uint64_t)id, &was_present);
  return flag_or_status(s, was_present);
}

JNI(jint, testLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_bloom_contains_one_u64(FILTER(h), (uint64_t)id);
}

JNI(jint, putBytes)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jint off, jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  uint8_t was_present = 0;
  seen_status s = seen_bloom_add_one_key(FILTER(h), p + off, (size_t)len, &was_present);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return flag_or_status(s, was_present);
}

JNI(jint, testBytes)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jint off, jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  int r = seen_bloom_contains_one_key(FILTER(h), p + off, (size_t)len);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return r;
}

/* One chunk of a batch: added when the batch has no out, else queried. */
static seen_status add_or_test_ids(void* f, const uint64_t* ids, size_t n, uint8_t* answers) {
  return answers == NULL ? seen_bloom_add_u64(f, ids, n)
                         : seen_bloom_contains_u64(f, ids, n, answers);
}

static seen_status add_or_test_keys(void* f, const uint8_t* data, const uint64_t* offsets,
                                    size_t n, uint8_t* answers) {
  return answers == NULL ? seen_bloom_add_keys(f, data, offsets, n)
                         : seen_bloom_contains_keys(f, data, offsets, n, answers);
}

JNI(jint, addLongs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len) {
  return ids_batch(env, ids, off, len, NULL, 0, SEEN_OK, add_or_test_ids, FILTER(h));
}

JNI(jint, testLongs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len,
                     jbooleanArray out, jint out_off) {
  return ids_batch(env, ids, off, len, out, out_off, SEEN_OK, add_or_test_ids, FILTER(h));
}

JNI(jint, addKeys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                   jint first, jint count) {
  return keys_batch(env, data, offsets, first, count, NULL, 0, SEEN_OK, add_or_test_keys,
                    FILTER(h));
}

JNI(jint, testKeys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                    jint first, jint count, jbooleanArray out, jint out_off) {
  return keys_batch(env, data, offsets, first, count, out, out_off, SEEN_OK, add_or_test_keys,
                    FILTER(h));
}

JNI(jint, addLongsDirect)(JNIEnv* env, jclass cls, jlong h, jobject ids, jlong pos, jlong n) {
  return seen_bloom_add_u64(FILTER(h), (const uint64_t*)direct(env, ids, pos), (size_t)n);
}

JNI(jint, testLongsDirect)(JNIEnv* env, jclass cls, jlong h, jobject ids, jlong pos, jlong n,
                           jobject out, jlong out_pos) {
  return seen_bloom_contains_u64(FILTER(h), (const uint64_t*)direct(env, ids, pos), (size_t)n,
                                 direct(env, out, out_pos));
}

JNI(jint, addKeysDirect)(JNIEnv* env, jclass cls, jlong h, jobject data, jlong data_pos,
                         jobject offsets, jlong offsets_pos, jlong n) {
  return seen_bloom_add_keys(FILTER(h), direct(env, data, data_pos),
                             (const uint64_t*)direct(env, offsets, offsets_pos), (size_t)n);
}

JNI(jint, testKeysDirect)(JNIEnv* env, jclass cls, jlong h, jobject data, jlong data_pos,
                          jobject offsets, jlong offsets_pos, jlong n, jobject out,
                          jlong out_pos) {
  return seen_bloom_contains_keys(FILTER(h), direct(env, data, data_pos),
                                  (const uint64_t*)direct(env, offsets, offsets_pos), (size_t)n,
                                  direct(env, out, out_pos));
}

JNI(jint, merge)(JNIEnv* env, jclass cls, jlong dst, jlong src) {
  return seen_bloom_merge(FILTER(dst), FILTER(src));
}

JNI(jint, clear)(JNIEnv* env, jclass cls, jlong h) {
  return seen_bloom_clear(FILTER(h));
}

/* out: bytes, blocks, k, read_only, seed, expected_items, raw bits of target_fpr. */
JNI(jint, params)(JNIEnv* env, jclass cls, jlong h, jlongArray out) {
  seen_bloom_info p = {.size = sizeof p};
  seen_status s = seen_bloom_get_info(FILTER(h), &p);
  if (s != SEEN_OK) return s;
  jlong fpr_bits;
  memcpy(&fpr_bits, &p.target_fpr, sizeof fpr_bits);
  jlong v[7] = {(jlong)p.bytes, (jlong)p.blocks, p.k, p.read_only, (jlong)p.seed,
                (jlong)p.expected_items, fpr_bits};
  (*env)->SetLongArrayRegion(env, out, 0, 7, v);
  return SEEN_OK;
}

/* out: fill_ratio, approx_items, predicted_fpr. */
JNI(jint, stats)(JNIEnv* env, jclass cls, jlong h, jdoubleArray out) {
  seen_bloom_stats st = {.size = sizeof st};
  seen_status s = seen_bloom_get_stats(FILTER(h), &st);
  if (s != SEEN_OK) return s;
  jdouble v[3] = {st.fill_ratio, st.approx_items, st.predicted_fpr};
  (*env)->SetDoubleArrayRegion(env, out, 0, 3, v);
  return SEEN_OK;
}

JNI_SERIALIZED_FORM(seen_bloom)

JNI_FILE(seen_bloom)

JNI(jint, sync)(JNIEnv* env, jclass cls, jlong h) {
  return seen_bloom_sync(FILTER(h));
}
