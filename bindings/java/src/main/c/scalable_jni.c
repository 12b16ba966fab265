/* JNI glue for io.seen.NativeScalable: the scalable filter, translated into seen.h calls and
 * nothing else (see bloom_jni.c for the conventions). Heap arrays are pinned one chunk per
 * critical section. */
#include "jni_batch.h"

#define FILTER(h) ((seen_scalable*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeScalable_##name

/* The options of create and createKeyed; key NULL (and key_len 0) for an unkeyed filter. */
static seen_scalable_options scalable_options(jlong initial_capacity, jdouble fpp,
                                              jdouble growth, jdouble tightening, jlong seed,
                                              const jbyte* key, size_t key_len) {
  seen_scalable_options o;
  memset(&o, 0, sizeof o);
  o.size = sizeof o;
  o.initial_capacity = (uint64_t)initial_capacity;
  o.fpr = fpp;
  o.growth = growth;
  o.tightening = tightening;
  o.seed = (uint64_t)seed;
  o.key = (const uint8_t*)key;
  o.key_len = key_len;
  return o;
}

/* Keyed (key not null) or with seed; the key's bytes are copied out for the call only. */
JNI(jint, create)(JNIEnv* env, jclass cls, jlong initial_capacity, jdouble fpp, jdouble growth,
                  jdouble tightening, jlong seed, jbyteArray key, jlongArray out) {
  call_key k = key_open(env, key);
  if (key_failed(&k)) return JAVA_EXCEPTION_PENDING;
  seen_scalable_options o =
      scalable_options(initial_capacity, fpp, growth, tightening, seed, k.bytes, k.len);
  seen_scalable* f = NULL;
  seen_error err;
  seen_status s = seen_scalable_create(&o, &f, &err);
  key_close(env, &k);
  return handle_out(env, out, s, f, &err);
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

