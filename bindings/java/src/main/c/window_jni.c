/* JNI glue for io.seen.NativeWindow: exposure windows, translated into seen.h calls and
 * nothing else (see bloom_jni.c for the conventions). A window never blocks on a lock, so its
 * batches pin heap arrays with GetPrimitiveArrayCritical, one chunk per critical section
 * (jni_batch.c). */
#include "jni_batch.h"

#define WINDOW(h) ((seen_window*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeWindow_##name

/* Keyed when key is not null; its bytes are copied out for the call only. */
JNI(jint, create)(JNIEnv* env, jclass cls, jint mode, jint span, jint expected_items,
                  jdouble fpr, jdouble max_slack, jlong seed, jlong max_bytes, jbyteArray key,
                  jlong now, jlongArray out) {
  call_key k = key_open(env, key);
  if (key_failed(&k)) return JAVA_EXCEPTION_PENDING;
  seen_window_options o =
      window_options(mode, span, expected_items, fpr, max_slack, seed, max_bytes, &k);
  seen_window* w = NULL;
  seen_error err;
  seen_status s = seen_window_create(&o, (uint64_t)now, &w, &err);
  key_close(env, &k);
  return handle_out(env, out, s, w, &err);
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
  return flag_or_status(s, found);
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

/* The window and the time of a batch, for its chunks. */
typedef struct {
  seen_window* w;
  uint64_t now;
} timed_batch;

/* One chunk of a batch: added when the batch has no out, else queried. */
static seen_status add_or_test_ids(void* ctx, const uint64_t* ids, size_t n, uint8_t* answers) {
  const timed_batch* b = ctx;
  return answers == NULL ? seen_window_add_u64(b->w, ids, n, b->now)
                         : seen_window_contains_u64(b->w, ids, n, b->now, answers);
}

static seen_status add_or_test_keys(void* ctx, const uint8_t* data, const uint64_t* offsets,
                                    size_t n, uint8_t* answers) {
  const timed_batch* b = ctx;
  return answers == NULL ? seen_window_add_keys(b->w, data, offsets, n, b->now)
                         : seen_window_contains_keys(b->w, data, offsets, n, b->now, answers);
}

JNI(jint, addLongs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len,
                    jlong now) {
  timed_batch b = {WINDOW(h), (uint64_t)now};
  return ids_batch(env, ids, off, len, NULL, 0, SEEN_OK, add_or_test_ids, &b);
}

JNI(jint, testLongs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len,
                     jlong now, jbooleanArray out, jint out_off) {
  timed_batch b = {WINDOW(h), (uint64_t)now};
  return ids_batch(env, ids, off, len, out, out_off, SEEN_OK, add_or_test_ids, &b);
}

JNI(jint, addKeys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                   jint first, jint count, jlong now) {
  timed_batch b = {WINDOW(h), (uint64_t)now};
  return keys_batch(env, data, offsets, first, count, NULL, 0, SEEN_OK, add_or_test_keys, &b);
}

JNI(jint, testKeys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                    jint first, jint count, jlong now, jbooleanArray out, jint out_off) {
  timed_batch b = {WINDOW(h), (uint64_t)now};
  return keys_batch(env, data, offsets, first, count, out, out_off, SEEN_OK, add_or_test_keys,
                    &b);
}

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
