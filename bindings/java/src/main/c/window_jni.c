/* JNI glue for io.seen.NativeWindow: exposure windows, translated into seen.h calls and
 * nothing else (see bloom_jni.c for the conventions). A window never blocks on a lock, so its
 * batches pin heap arrays with GetPrimitiveArrayCritical, one chunk per critical section. */
#include "jni_common.h"

#define WINDOW(h) ((seen_window*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeWindow_##name

/* Query results of single keys: 1 or 0, or below 0 the negated status. */
static jint test_result(seen_status s, uint8_t found) {
  return s == SEEN_OK ? found : -(jint)s;
}

JNI(jint, create)(JNIEnv* env, jclass cls, jint mode, jint span, jint expected_items,
                  jdouble fpr, jdouble max_slack, jlong seed, jlong max_bytes, jlong now,
                  jlongArray out) {
  seen_window_options o =
      window_options(mode, span, expected_items, fpr, max_slack, seed, max_bytes);
  seen_window* w = NULL;
  seen_status s = seen_window_create(&o, (uint64_t)now, &w);
  return handle_out(env, out, s, w);
}

JNI(void, free)(JNIEnv* env, jclass cls, jlong h) {
  seen_window_free(WINDOW(h));
}

JNI(jint, info)(JNIEnv* env, jclass cls, jlong h, jlongArray out) {
  seen_window_info info = {.size = sizeof info};
  seen_status s = seen_window_get_info(WINDOW(h), &info);
  if (s == SEEN_OK) window_info_out(env, &info, out);
  return s;
}

JNI(jint, putLong)(JNIEnv* env, jclass cls, jlong h, jlong id, jlong now) {
  uint64_t item = (uint64_t)id;
  return seen_window_add_u64(WINDOW(h), &item, 1, (uint64_t)now);
}

JNI(jint, testLong)(JNIEnv* env, jclass cls, jlong h, jlong id, jlong now) {
  uint64_t item = (uint64_t)id;
  uint8_t found = 0;
  seen_status s = seen_window_contains_u64(WINDOW(h), &item, 1, (uint64_t)now, &found);
  return test_result(s, found);
}

/* One byte key data[off .. off+len); out is NULL for an add. */
static jint one_key(JNIEnv* env, jlong h, jbyteArray key, jint off, jint len, jlong now,
                    uint8_t* out) {
  const uint64_t offsets[2] = {0, (uint64_t)len};
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  const uint8_t* data = (const uint8_t*)(p + off);
  seen_status s = out == NULL
                      ? seen_window_add_keys(WINDOW(h), data, offsets, 1, (uint64_t)now)
                      : seen_window_contains_keys(WINDOW(h), data, offsets, 1, (uint64_t)now, out);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return s;
}

JNI(jint, putBytes)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jint off, jint len,
                    jlong now) {
  return one_key(env, h, key, off, len, now, NULL);
}

JNI(jint, testBytes)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jint off, jint len,
                     jlong now) {
  uint8_t found = 0;
  jint s = one_key(env, h, key, off, len, now, &found);
  return s == SEEN_OK ? found : (s == JAVA_EXCEPTION_PENDING ? s : -s);
}

JNI(jint, addLongs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len,
                    jlong now) {
  seen_status s = SEEN_OK;
  for (jint done = 0; done < len && s == SEEN_OK; done += ID_CHUNK) {
    jint n = len - done < ID_CHUNK ? len - done : ID_CHUNK;
    jlong* p = (*env)->GetPrimitiveArrayCritical(env, ids, NULL);
    if (p == NULL) return JAVA_EXCEPTION_PENDING;
    s = seen_window_add_u64(WINDOW(h), (const uint64_t*)(p + off + done), (size_t)n,
                            (uint64_t)now);
    (*env)->ReleasePrimitiveArrayCritical(env, ids, p, JNI_ABORT);
  }
  return s;
}

JNI(jint, testLongs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len,
                     jlong now, jbooleanArray out, jint out_off) {
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
    s = seen_window_contains_u64(WINDOW(h), (const uint64_t*)(p + off + done), (size_t)n,
                                 (uint64_t)now, (uint8_t*)(q + out_off + done));
    (*env)->ReleasePrimitiveArrayCritical(env, out, q, 0);
    (*env)->ReleasePrimitiveArrayCritical(env, ids, p, JNI_ABORT);
  }
  return s;
}

/* Byte keys first .. first+count of data + int offsets (validated by Java); out is NULL for
 * adds. Each chunk widens its offsets to the uint64 layout seen.h takes. */
static jint keys_batch(JNIEnv* env, jlong h, jbyteArray data, jintArray offsets, jint first,
                       jint count, jlong now, jbooleanArray out, jint out_off) {
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
      s = seen_window_add_keys(WINDOW(h), (const uint8_t*)d, wide, (size_t)n, (uint64_t)now);
    } else {
      jboolean* q = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
      if (q == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, data, d, JNI_ABORT);
        return JAVA_EXCEPTION_PENDING;
      }
      s = seen_window_contains_keys(WINDOW(h), (const uint8_t*)d, wide, (size_t)n,
                                    (uint64_t)now, (uint8_t*)(q + out_off + done));
      (*env)->ReleasePrimitiveArrayCritical(env, out, q, 0);
    }
    (*env)->ReleasePrimitiveArrayCritical(env, data, d, JNI_ABORT);
  }
  return s;
}

JNI(jint, addKeys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                   jint first, jint count, jlong now) {
  return keys_batch(env, h, data, offsets, first, count, now, NULL, 0);
}

JNI(jint, testKeys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                    jint first, jint count, jlong now, jbooleanArray out, jint out_off) {
  return keys_batch(env, h, data, offsets, first, count, now, out, out_off);
}

JNI_SERIALIZED_FORM(seen_window)

JNI(jint, addLongsDirect)(JNIEnv* env, jclass cls, jlong h, jobject ids, jlong pos, jlong n,
                          jlong now) {
  return seen_window_add_u64(WINDOW(h), (const uint64_t*)direct(env, ids, pos), (size_t)n,
                             (uint64_t)now);
}

JNI(jint, testLongsDirect)(JNIEnv* env, jclass cls, jlong h, jobject ids, jlong pos, jlong n,
                           jlong now, jobject out, jlong out_pos) {
  return seen_window_contains_u64(WINDOW(h), (const uint64_t*)direct(env, ids, pos), (size_t)n,
                                  (uint64_t)now, direct(env, out, out_pos));
}
