/* JNI glue for io.seen.NativeBloom: translates Java arrays and buffers into seen.h calls and
 * nothing else. Every native returns a seen_status (or a value that encodes one); the Java side
 * turns failures into SeenException with seen_last_error(), which is thread-local and so still
 * holds this call's message when Java asks for it.
 *
 * Heap arrays are pinned with GetPrimitiveArrayCritical, which may stall the garbage collector,
 * so long batches are cut into chunks and each chunk gets its own short critical section. When
 * a JNI call fails it has already raised a Java exception: return at once. */
#include "jni_common.h"

#define FILTER(h) ((seen_bloom*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeBloom_##name

/* Put results encode both outcomes in one int: 0 or 1 is was_present, below 0 is -status. */
static jint put_result(seen_status s, uint8_t was_present) {
  return s == SEEN_OK ? was_present : -(jint)s;
}

JNI(jstring, lastError)(JNIEnv* env, jclass cls) {
  return (*env)->NewStringUTF(env, seen_last_error());
}

JNI(jint, versionNumber)(JNIEnv* env, jclass cls) {
  return (jint)seen_version_number();
}

JNI(jint, create)(JNIEnv* env, jclass cls, jlong expected, jdouble fpp, jlong seed,
                  jlongArray out) {
  seen_bloom* f = NULL;
  seen_status s = seen_bloom_create((uint64_t)expected, fpp, (uint64_t)seed, &f);
  return handle_out(env, out, s, f);
}

JNI(void, free)(JNIEnv* env, jclass cls, jlong h) {
  seen_bloom_free(FILTER(h));
}

JNI(jint, putLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  uint8_t was_present = 0;
  seen_status s = seen_bloom_put_u64(FILTER(h), (uint64_t)id, &was_present);
  return put_result(s, was_present);
}

JNI(jint, testLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_bloom_test_u64(FILTER(h), (uint64_t)id);
}

JNI(jint, putBytes)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jint off, jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  uint8_t was_present = 0;
  seen_status s = seen_bloom_put_key(FILTER(h), p + off, (size_t)len, &was_present);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return put_result(s, was_present);
}

JNI(jint, testBytes)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jint off, jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  int r = seen_bloom_test_key(FILTER(h), p + off, (size_t)len);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return r;
}

JNI(jint, addLongs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len) {
  seen_status s = SEEN_OK;
  for (jint done = 0; done < len && s == SEEN_OK; done += ID_CHUNK) {
    jint n = len - done < ID_CHUNK ? len - done : ID_CHUNK;
    jlong* p = (*env)->GetPrimitiveArrayCritical(env, ids, NULL);
    if (p == NULL) return JAVA_EXCEPTION_PENDING;
    s = seen_bloom_add_u64(FILTER(h), (const uint64_t*)(p + off + done), (size_t)n);
    (*env)->ReleasePrimitiveArrayCritical(env, ids, p, JNI_ABORT);
  }
  return s;
}

JNI(jint, testLongs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len,
                     jbooleanArray out, jint out_off) {
  seen_status s = SEEN_OK;
  for (jint done = 0; done < len && s == SEEN_OK; done += ID_CHUNK) {
    jint n = len - done < ID_CHUNK ? len - done : ID_CHUNK;
    jlong* p = (*env)->GetPrimitiveArrayCritical(env, ids, NULL);
    if (p == NULL) return JAVA_EXCEPTION_PENDING;
    jboolean* q = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
    if (q == NULL) {
      (*env)->ReleasePrimitiveArrayCritical(env, ids, p, JNI_ABORT);
      return JAVA_EXCEPTION_PENDING;
    }
    /* jboolean is one byte holding 0 or 1: exactly seen's result layout. */
    s = seen_bloom_contains_u64(FILTER(h), (const uint64_t*)(p + off + done), (size_t)n,
                                (uint8_t*)(q + out_off + done));
    (*env)->ReleasePrimitiveArrayCritical(env, out, q, 0);
    (*env)->ReleasePrimitiveArrayCritical(env, ids, p, JNI_ABORT);
  }
  return s;
}

/* Byte keys first .. first+count of data + int offsets (validated by Java); out is NULL for
 * adds. Each chunk widens its offsets to the uint64 layout seen.h takes. */
static jint keys_batch(JNIEnv* env, jlong h, jbyteArray data, jintArray offsets, jint first,
                       jint count, jbooleanArray out, jint out_off) {
  uint64_t wide[KEY_CHUNK + 1];
  seen_status s = SEEN_OK;
  for (jint done = 0; done < count && s == SEEN_OK; done += KEY_CHUNK) {
    jint n = count - done < KEY_CHUNK ? count - done : KEY_CHUNK;
    jint narrow[KEY_CHUNK + 1];
    (*env)->GetIntArrayRegion(env, offsets, first + done, n + 1, narrow);
    if ((*env)->ExceptionCheck(env)) return JAVA_EXCEPTION_PENDING;
    for (jint i = 0; i <= n; i++) wide[i] = (uint64_t)narrow[i];
    jbyte* d = (*env)->GetPrimitiveArrayCritical(env, data, NULL);
    if (d == NULL) return JAVA_EXCEPTION_PENDING;
    if (out == NULL) {
      s = seen_bloom_add_keys(FILTER(h), (const uint8_t*)d, wide, (size_t)n);
    } else {
      jboolean* q = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
      if (q == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, data, d, JNI_ABORT);
        return JAVA_EXCEPTION_PENDING;
      }
      s = seen_bloom_contains_keys(FILTER(h), (const uint8_t*)d, wide, (size_t)n,
                                   (uint8_t*)(q + out_off + done));
      (*env)->ReleasePrimitiveArrayCritical(env, out, q, 0);
    }
    (*env)->ReleasePrimitiveArrayCritical(env, data, d, JNI_ABORT);
  }
  return s;
}

JNI(jint, addKeys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                   jint first, jint count) {
  return keys_batch(env, h, data, offsets, first, count, NULL, 0);
}

JNI(jint, testKeys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                    jint first, jint count, jbooleanArray out, jint out_off) {
  return keys_batch(env, h, data, offsets, first, count, out, out_off);
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
  seen_bloom_params p = {.size = sizeof p};
  seen_status s = seen_bloom_get_params(FILTER(h), &p);
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
