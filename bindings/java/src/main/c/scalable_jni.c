/* JNI glue for io.seen.NativeScalable: the scalable filter, translated into seen.h calls and
 * nothing else (see bloom_jni.c for the conventions). Heap arrays are pinned one chunk per
 * critical section. */
#include "jni_common.h"

#define FILTER(h) ((seen_scalable*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeScalable_##name

/* Put results encode both outcomes in one int: 0 or 1 is was_present, below 0 is -status. */
static jint put_result(seen_status s, uint8_t was_present) {
  return s == SEEN_OK ? was_present : -(jint)s;
}

JNI(jint, create)(JNIEnv* env, jclass cls, jlong initial_capacity, jdouble fpp, jdouble growth,
                  jdouble tightening, jlong seed, jlongArray out) {
  seen_scalable_options o;
  memset(&o, 0, sizeof o);
  o.size = sizeof o;
  o.initial_capacity = (uint64_t)initial_capacity;
  o.fpr = fpp;
  o.growth = growth;
  o.tightening = tightening;
  o.seed = (uint64_t)seed;
  seen_scalable* f = NULL;
  seen_status s = seen_scalable_create(&o, &f);
  return handle_out(env, out, s, f);
}

JNI(void, free)(JNIEnv* env, jclass cls, jlong h) {
  seen_scalable_free(FILTER(h));
}

JNI(jint, putLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  uint8_t was_present = 0;
  seen_status s = seen_scalable_put_u64(FILTER(h), (uint64_t)id, &was_present);
  return put_result(s, was_present);
}

JNI(jint, testLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_scalable_test_u64(FILTER(h), (uint64_t)id);
}

JNI(jint, putBytes)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jint off, jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  uint8_t was_present = 0;
  seen_status s = seen_scalable_put_key(FILTER(h), p + off, (size_t)len, &was_present);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return put_result(s, was_present);
}

JNI(jint, testBytes)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jint off, jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  int r = seen_scalable_test_key(FILTER(h), p + off, (size_t)len);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return r;
}

/* ids[off .. off+len): added when out is NULL, else queried into out from out_off. */
JNI(jint, longs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len,
                 jbooleanArray out, jint out_off) {
  seen_status s = SEEN_OK;
  for (jint done = 0; done < len && s == SEEN_OK; done += ID_CHUNK) {
    jint n = len - done < ID_CHUNK ? len - done : ID_CHUNK;
    jlong* p = (*env)->GetPrimitiveArrayCritical(env, ids, NULL);
    if (p == NULL) return JAVA_EXCEPTION_PENDING;
    const uint64_t* chunk = (const uint64_t*)(p + off + done);
    if (out == NULL) {
      s = seen_scalable_add_u64(FILTER(h), chunk, (size_t)n);
    } else {
      jboolean* q = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
      if (q == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, ids, p, JNI_ABORT);
        return JAVA_EXCEPTION_PENDING;
      }
      /* jboolean is one byte holding 0 or 1: exactly seen's result layout. */
      s = seen_scalable_contains_u64(FILTER(h), chunk, (size_t)n,
                                     (uint8_t*)(q + out_off + done));
      (*env)->ReleasePrimitiveArrayCritical(env, out, q, 0);
    }
    (*env)->ReleasePrimitiveArrayCritical(env, ids, p, JNI_ABORT);
  }
  return s;
}

/* Byte keys first .. first+count of data + int offsets (validated by Java); out is NULL for
 * adds. Each chunk widens its offsets to the uint64 layout seen.h takes. */
JNI(jint, keys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                jint first, jint count, jbooleanArray out, jint out_off) {
  uint64_t wide[KEY_CHUNK + 1];
  jint narrow[KEY_CHUNK + 1];
  seen_status s = SEEN_OK;
  for (jint done = 0; done < count && s == SEEN_OK; done += KEY_CHUNK) {
    jint n = count - done < KEY_CHUNK ? count - done : KEY_CHUNK;
    (*env)->GetIntArrayRegion(env, offsets, first + done, n + 1, narrow);
    if ((*env)->ExceptionCheck(env)) return JAVA_EXCEPTION_PENDING;
    for (jint i = 0; i <= n; i++) wide[i] = (uint64_t)narrow[i];
    jbyte* d = (*env)->GetPrimitiveArrayCritical(env, data, NULL);
    if (d == NULL) return JAVA_EXCEPTION_PENDING;
    if (out == NULL) {
      s = seen_scalable_add_keys(FILTER(h), (const uint8_t*)d, wide, (size_t)n);
    } else {
      jboolean* q = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
      if (q == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, data, d, JNI_ABORT);
        return JAVA_EXCEPTION_PENDING;
      }
      s = seen_scalable_contains_keys(FILTER(h), (const uint8_t*)d, wide, (size_t)n,
                                      (uint8_t*)(q + out_off + done));
      (*env)->ReleasePrimitiveArrayCritical(env, out, q, 0);
    }
    (*env)->ReleasePrimitiveArrayCritical(env, data, d, JNI_ABORT);
  }
  return s;
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
