/* JNI glue for io.seen.NativeScalable: the scalable filter, translated into seen.h calls and
 * nothing else (see bloom_jni.c for the conventions). Heap arrays are pinned one chunk per
 * critical section. */
#include "jni_batch.h"

#define FILTER(h) ((seen_scalable*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeScalable_##name

JNI_LAST_ERROR(seen_scalable)

/* The options of create and createKeyed; key NULL (and key_len 0) for an unkeyed filter. */
static seen_scalable_options scalable_options(jlong initial_capacity, jdouble fpp,
                                              jdouble growth, jdouble tightening, jlong seed,
                                              const jbyte* key, jsize key_len) {
  seen_scalable_options o;
  memset(&o, 0, sizeof o);
  o.size = sizeof o;
  o.initial_capacity = (uint64_t)initial_capacity;
  o.fpr = fpp;
  o.growth = growth;
  o.tightening = tightening;
  o.seed = (uint64_t)seed;
  o.key = (const uint8_t*)key;
  o.key_len = (size_t)key_len;
  return o;
}

JNI(jint, create)(JNIEnv* env, jclass cls, jlong initial_capacity, jdouble fpp, jdouble growth,
                  jdouble tightening, jlong seed, jlongArray out) {
  seen_scalable_options o =
      scalable_options(initial_capacity, fpp, growth, tightening, seed, NULL, 0);
  seen_scalable* f = NULL;
  seen_error err;
  seen_status s = seen_scalable_create(&o, &f, &err);
  return handle_out(env, out, s, f, &err);
}

/* Keyed mode: the key's bytes are copied out of the array for the call only. */
JNI(jint, createKeyed)(JNIEnv* env, jclass cls, jlong initial_capacity, jdouble fpp,
                       jdouble growth, jdouble tightening, jbyteArray key, jlongArray out) {
  jbyte* k = (*env)->GetByteArrayElements(env, key, NULL);
  if (k == NULL) return JAVA_EXCEPTION_PENDING;
  seen_scalable_options o = scalable_options(initial_capacity, fpp, growth, tightening, 0, k,
                                             (*env)->GetArrayLength(env, key));
  seen_scalable* f = NULL;
  seen_error err;
  seen_status s = seen_scalable_create(&o, &f, &err);
  (*env)->ReleaseByteArrayElements(env, key, k, JNI_ABORT);
  return handle_out(env, out, s, f, &err);
}

JNI(void, free)(JNIEnv* env, jclass cls, jlong h) {
  seen_scalable_free(FILTER(h));
}

JNI(jint, putLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  uint8_t was_present = 0;
  seen_status s = seen_scalable_add_one_u64(FILTER(h), (uint64_t)id, &was_present);
  return flag_or_status(s, was_present);
}

JNI(jint, testLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_scalable_contains_one_u64(FILTER(h), (uint64_t)id);
}

JNI(jint, putBytes)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jint off, jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  uint8_t was_present = 0;
  seen_status s = seen_scalable_add_one_key(FILTER(h), p + off, (size_t)len, &was_present);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return flag_or_status(s, was_present);
}

JNI(jint, testBytes)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jint off, jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  int r = seen_scalable_contains_one_key(FILTER(h), p + off, (size_t)len);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return r;
}

/* One chunk of a batch: added when the batch has no out, else queried. */
static seen_status add_or_test_ids(void* f, const uint64_t* ids, size_t n, uint8_t* answers) {
  return answers == NULL ? seen_scalable_add_u64(f, ids, n)
                         : seen_scalable_contains_u64(f, ids, n, answers);
}

static seen_status add_or_test_keys(void* f, const uint8_t* data, const uint64_t* offsets,
                                    size_t n, uint8_t* answers) {
  return answers == NULL ? seen_scalable_add_keys(f, data, offsets, n)
                         : seen_scalable_contains_keys(f, data, offsets, n, answers);
}

/* ids[off .. off+len): added when out is NULL, else queried into out from out_off. */
JNI(jint, longs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len,
                 jbooleanArray out, jint out_off) {
  return ids_batch(env, ids, off, len, out, out_off, SEEN_OK, add_or_test_ids, FILTER(h));
}

/* Byte keys first .. first+count of data + int offsets, as longs. */
JNI(jint, keys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                jint first, jint count, jbooleanArray out, jint out_off) {
  return keys_batch(env, data, offsets, first, count, out, out_off, SEEN_OK, add_or_test_keys,
                    FILTER(h));
}

/* out: items, subfilters, read_only, bytes, raw bits of predicted_fpr, initial_capacity, raw
 * bits of fpr, of growth and of tightening, seed. */
JNI(jint, info)(JNIEnv* env, jclass cls, jlong h, jlongArray out) {
  seen_scalable_info i = {.size = sizeof i};
  seen_status s = seen_scalable_get_info(FILTER(h), &i);
  if (s != SEEN_OK) return s;
  jlong v[10] = {(jlong)i.items, i.subfilters, i.read_only, (jlong)i.bytes,
                 double_bits(i.predicted_fpr), (jlong)i.initial_capacity, double_bits(i.fpr),
                 double_bits(i.growth), double_bits(i.tightening), (jlong)i.seed};
  (*env)->SetLongArrayRegion(env, out, 0, 10, v);
  return SEEN_OK;
}

JNI_SERIALIZED_FORM(seen_scalable)

JNI_FILE(seen_scalable)

JNI_KEYED_FORMS(seen_scalable)

/* Direct buffers: out is NULL for adds. */
JNI(jint, longsDirect)(JNIEnv* env, jclass cls, jlong h, jobject ids, jlong pos, jlong n,
                       jobject out, jlong out_pos) {
  const uint64_t* p = (const uint64_t*)direct(env, ids, pos);
  if (out == NULL) return seen_scalable_add_u64(FILTER(h), p, (size_t)n);
  return seen_scalable_contains_u64(FILTER(h), p, (size_t)n, direct(env, out, out_pos));
}

JNI(jint, keysDirect)(JNIEnv* env, jclass cls, jlong h, jobject data, jlong data_pos,
                      jobject offsets, jlong offsets_pos, jlong n, jobject out, jlong out_pos) {
  const uint8_t* d = direct(env, data, data_pos);
  const uint64_t* o = (const uint64_t*)direct(env, offsets, offsets_pos);
  if (out == NULL) return seen_scalable_add_keys(FILTER(h), d, o, (size_t)n);
  return seen_scalable_contains_keys(FILTER(h), d, o, (size_t)n, direct(env, out, out_pos));
}
