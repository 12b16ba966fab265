/* JNI glue for io.seen.NativeCounting: the counting filter, translated into seen.h calls and
 * nothing else (see bloom_jni.c for the conventions). Heap arrays are pinned one chunk per
 * critical section. A remove batch goes on past a certainly-absent key (SEEN_ERR_NOT_FOUND
 * from one chunk does not stop the next) and reports NOT_FOUND once at the end, as the C call
 * does for one batch. */
#include "jni_batch.h"

#define FILTER(h) ((seen_counting*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeCounting_##name

JNI_LAST_ERROR(seen_counting)

/* The batch operations; the values are NativeCounting's ADD, REMOVE and CONTAINS. */
enum { OP_ADD = 0, OP_REMOVE = 1, OP_CONTAINS = 2 };

JNI(jint, create)(JNIEnv* env, jclass cls, jlong expected, jdouble fpp, jlong seed,
                  jlongArray out) {
  seen_counting* f = NULL;
  seen_error err;
  seen_status s = seen_counting_create((uint64_t)expected, fpp, (uint64_t)seed, &f, &err);
  return handle_out(env, out, s, f, &err);
}

/* Keyed mode: the key's bytes are copied out of the array for the call only. */
JNI(jint, createKeyed)(JNIEnv* env, jclass cls, jlong expected, jdouble fpp, jbyteArray key,
                       jlongArray out) {
  jbyte* k = (*env)->GetByteArrayElements(env, key, NULL);
  if (k == NULL) return JAVA_EXCEPTION_PENDING;
  seen_counting* f = NULL;
  seen_error err;
  seen_status s = seen_counting_create_keyed((uint64_t)expected, fpp, (const uint8_t*)k,
                                             (size_t)(*env)->GetArrayLength(env, key), &f, &err);
  (*env)->ReleaseByteArrayElements(env, key, k, JNI_ABORT);
  return handle_out(env, out, s, f, &err);
}

JNI(void, free)(JNIEnv* env, jclass cls, jlong h) {
  seen_counting_free(FILTER(h));
}

JNI(jint, putLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_counting_add_one_u64(FILTER(h), (uint64_t)id);
}

JNI(jint, removeLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_counting_remove_one_u64(FILTER(h), (uint64_t)id);
}

JNI(jint, testLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_counting_contains_one_u64(FILTER(h), (uint64_t)id);
}

/* One byte key key[off .. off+len): op ADD or REMOVE returns a status, CONTAINS 1 or 0. */
JNI(jint, oneKey)(JNIEnv* env, jclass cls, jlong h, jint op, jbyteArray key, jint off,
                  jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  jint r;
  if (op == OP_ADD) {
    r = seen_counting_add_one_key(FILTER(h), p + off, (size_t)len);
  } else if (op == OP_REMOVE) {
    r = seen_counting_remove_one_key(FILTER(h), p + off, (size_t)len);
  } else {
    r = seen_counting_contains_one_key(FILTER(h), p + off, (size_t)len);
  }
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return r;
}

/* The filter and the op of a batch, for its chunks. */
typedef struct {
  seen_counting* f;
  jint op;
} counting_batch;

static seen_status ids_through_op(void* ctx, const uint64_t* ids, size_t n, uint8_t* answers) {
  const counting_batch* b = ctx;
  if (b->op == OP_ADD) return seen_counting_add_u64(b->f, ids, n);
  if (b->op == OP_REMOVE) return seen_counting_remove_u64(b->f, ids, n, answers);
  return seen_counting_contains_u64(b->f, ids, n, answers);
}

static seen_status keys_through_op(void* ctx, const uint8_t* data, const uint64_t* offsets,
                                   size_t n, uint8_t* answers) {
  const counting_batch* b = ctx;
  if (b->op == OP_ADD) return seen_counting_add_keys(b->f, data, offsets, n);
  if (b->op == OP_REMOVE) return seen_counting_remove_keys(b->f, data, offsets, n, answers);
  return seen_counting_contains_keys(b->f, data, offsets, n, answers);
}

/* ids[off .. off+len) through op; out (answers for CONTAINS, removed flags for REMOVE; NULL
 * for ADD, and may be NULL for REMOVE) gets one jboolean per id from out_off. */
JNI(jint, longs)(JNIEnv* env, jclass cls, jlong h, jint op, jlongArray ids, jint off, jint len,
                 jbooleanArray out, jint out_off) {
  counting_batch b = {FILTER(h), op};
  return ids_batch(env, ids, off, len, out, out_off, SEEN_ERR_NOT_FOUND, ids_through_op, &b);
}

/* Byte keys first .. first+count of data + int offsets, through op as in longs. */
JNI(jint, keys)(JNIEnv* env, jclass cls, jlong h, jint op, jbyteArray data, jintArray offsets,
                jint first, jint count, jbooleanArray out, jint out_off) {
  counting_batch b = {FILTER(h), op};
  return keys_batch(env, data, offsets, first, count, out, out_off, SEEN_ERR_NOT_FOUND,
                    keys_through_op, &b);
}

JNI(jint, clear)(JNIEnv* env, jclass cls, jlong h) {
  return seen_counting_clear(FILTER(h));
}

/* out: bytes, blocks, k, read_only, seed, expected_items, raw bits of target_fpr,
 * counter_bits. */
JNI(jint, params)(JNIEnv* env, jclass cls, jlong h, jlongArray out) {
  seen_counting_info p = {.size = sizeof p};
  seen_status s = seen_counting_get_info(FILTER(h), &p);
  if (s != SEEN_OK) return s;
  jlong v[8] = {(jlong)p.bytes, (jlong)p.blocks, p.k, p.read_only, (jlong)p.seed,
                (jlong)p.expected_items, double_bits(p.target_fpr), p.counter_bits};
  (*env)->SetLongArrayRegion(env, out, 0, 8, v);
  return SEEN_OK;
}

/* out: approx_items, saturated, fill_ratio, predicted_fpr. */
JNI(jint, stats)(JNIEnv* env, jclass cls, jlong h, jdoubleArray out) {
  seen_counting_stats st = {.size = sizeof st};
  seen_status s = seen_counting_get_stats(FILTER(h), &st);
  if (s != SEEN_OK) return s;
  jdouble v[4] = {st.approx_items, (jdouble)st.saturated, st.fill_ratio, st.predicted_fpr};
  (*env)->SetDoubleArrayRegion(env, out, 0, 4, v);
  return SEEN_OK;
}

JNI_SERIALIZED_FORM(seen_counting)

JNI_FILE(seen_counting)

JNI_KEYED_FORMS(seen_counting)

JNI(jint, sync)(JNIEnv* env, jclass cls, jlong h) {
  return seen_counting_sync(FILTER(h));
}

/* Direct buffers: out is NULL for ADD and may be NULL for REMOVE. */
JNI(jint, longsDirect)(JNIEnv* env, jclass cls, jlong h, jint op, jobject ids, jlong pos,
                       jlong n, jobject out, jlong out_pos) {
  const uint64_t* p = (const uint64_t*)direct(env, ids, pos);
  uint8_t* answers = direct(env, out, out_pos);
  if (op == OP_ADD) return seen_counting_add_u64(FILTER(h), p, (size_t)n);
  if (op == OP_REMOVE) return seen_counting_remove_u64(FILTER(h), p, (size_t)n, answers);
  return seen_counting_contains_u64(FILTER(h), p, (size_t)n, answers);
}

JNI(jint, keysDirect)(JNIEnv* env, jclass cls, jlong h, jint op, jobject data, jlong data_pos,
                      jobject offsets, jlong offsets_pos, jlong n, jobject out, jlong out_pos) {
  const uint8_t* d = direct(env, data, data_pos);
  const uint64_t* o = (const uint64_t*)direct(env, offsets, offsets_pos);
  uint8_t* answers = direct(env, out, out_pos);
  if (op == OP_ADD) return seen_counting_add_keys(FILTER(h), d, o, (size_t)n);
  if (op == OP_REMOVE) return seen_counting_remove_keys(FILTER(h), d, o, (size_t)n, answers);
  return seen_counting_contains_keys(FILTER(h), d, o, (size_t)n, answers);
}
