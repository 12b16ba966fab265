/* JNI glue for io.seen.NativeStore: the exposure store, translated into seen.h calls and
 * nothing else (see bloom_jni.c for the conventions).
 *
 * Unlike a filter or a window, a store call may wait for a shard's lock, and seen_store_save
 * holds every shard's lock while it writes the file. A thread must not wait like that inside
 * a JNI critical section (the garbage collector would wait with it), so store calls never pin
 * Java arrays: ids are copied into native memory (Get/Set<Type>ArrayRegion) and answers
 * copied back. Filter and mark go chunk by chunk; take copies its candidates whole, since it
 * is one atomic step. A failed allocation throws OutOfMemoryError. */
#include <stdlib.h>

#include "jni_batch.h"

#define STORE(h) ((seen_store*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeStore_##name

static const char OOM[] = "seen: no native memory for a store batch";

JNI(jint, create)(JNIEnv* env, jclass cls, jint mode, jint span, jint expected_items,
                  jdouble fpr, jdouble max_slack, jlong seed, jlong window_max_bytes,
                  jbyteArray key, jlong idle_timeout, jlong max_bytes, jlong expected_users,
                  jlongArray out) {
  call_key k = key_open(env, key);
  if (key_failed(&k)) return JAVA_EXCEPTION_PENDING;
  seen_window_options wo =
      window_options(mode, span, expected_items, fpr, max_slack, seed, window_max_bytes, &k);
  seen_store_options so;
  memset(&so, 0, sizeof so);
  so.size = sizeof so;
  so.window = &wo;
  so.idle_timeout = (uint32_t)idle_timeout;
  so.max_bytes = (uint64_t)max_bytes;
  so.expected_users = (uint64_t)expected_users;
  seen_store* s = NULL;
  seen_error err;
  seen_status status = seen_store_create(&so, &s, &err);
  key_close(env, &k);
  return handle_out(env, out, status, s, &err);
}

/* The store, user and time of a batch, for its chunks. */
typedef struct {
  seen_store* store;
  uint64_t user;
  uint64_t now;
} user_batch;

static seen_status filter_chunk(void* ctx, const uint64_t* ids, size_t n, uint8_t* unseen) {
  const user_batch* b = ctx;
  return seen_store_filter(b->store, b->user, ids, n, b->now, unseen);
}

static seen_status mark_chunk(void* ctx, const uint64_t* ids, size_t n, uint8_t* unused) {
  const user_batch* b = ctx;
  return seen_store_mark(b->store, b->user, ids, n, b->now);
}

JNI(jint, filter)(JNIEnv* env, jclass cls, jlong h, jlong user, jlongArray candidates,
                  jint off, jint len, jlong now, jbooleanArray out, jint out_off) {
  user_batch b = {STORE(h), (uint64_t)user, (uint64_t)now};
  return copied_ids_batch(env, candidates, off, len, out, out_off, OOM, filter_chunk, &b);
}

JNI(jint, mark)(JNIEnv* env, jclass cls, jlong h, jlong user, jlongArray items, jint off,
                jint len, jlong now) {
  user_batch b = {STORE(h), (uint64_t)user, (uint64_t)now};
  return copied_ids_batch(env, items, off, len, NULL, 0, OOM, mark_chunk, &b);
}

/* The count taken (0 .. want), or below 0 the negated status. */
JNI(jlong, take)(JNIEnv* env, jclass cls, jlong h, jlong user, jlongArray candidates, jint off,
                 jint len, jint want, jlong now, jlongArray taken, jint taken_off) {
  uint64_t* ids = alloc_or_throw(env, ((size_t)len + (size_t)want) * sizeof *ids, OOM);
  if (ids == NULL) return JAVA_EXCEPTION_PENDING;
  uint64_t* out = ids + len;
  size_t count = 0;
  seen_status s = SEEN_OK;
  (*env)->GetLongArrayRegion(env, candidates, off, len, (jlong*)ids);
  if (!(*env)->ExceptionCheck(env)) {
    s = seen_store_take(STORE(h), (uint64_t)user, ids, (size_t)len, (size_t)want, (uint64_t)now,
                        out, &count);
    if (s == SEEN_OK) (*env)->SetLongArrayRegion(env, taken, taken_off, (jsize)count, (jlong*)out);
  }
  free(ids);
  if ((*env)->ExceptionCheck(env)) return JAVA_EXCEPTION_PENDING;
  return s == SEEN_OK ? (jlong)count : -(jlong)s;
}

/* The users dropped, or below 0 the negated status. */
JNI(jlong, expire)(JNIEnv* env, jclass cls, jlong h, jlong now) {
  uint64_t dropped = 0;
  seen_status s = seen_store_expire(STORE(h), (uint64_t)now, &dropped);
  return s == SEEN_OK ? (jlong)dropped : -(jlong)s;
}

/* out: users, bytes, evictions, expirations. */
JNI(jint, stats)(JNIEnv* env, jclass cls, jlong h, jlongArray out) {
  seen_store_stats st = {.size = sizeof st};
  seen_status s = seen_store_get_stats(STORE(h), &st);
  if (s != SEEN_OK) return s;
  jlong v[4] = {(jlong)st.users, (jlong)st.bytes, (jlong)st.evictions, (jlong)st.expirations};
  (*env)->SetLongArrayRegion(env, out, 0, 4, v);
  return SEEN_OK;
}

JNI(jint, windowInfo)(JNIEnv* env, jclass cls, jlong h, jlongArray out) {
  seen_window_info info = {.size = sizeof info};
  seen_status s = seen_store_get_window_info(STORE(h), &info);
  if (s == SEEN_OK) window_info_out(env, &info, out);
  return s;
}

JNI(jint, filterDirect)(JNIEnv* env, jclass cls, jlong h, jlong user, jobject candidates,
                        jlong pos, jlong n, jlong now, jobject out, jlong out_pos) {
  return seen_store_filter(STORE(h), (uint64_t)user,
                           (const uint64_t*)direct(env, candidates, pos), (size_t)n,
                           (uint64_t)now, direct(env, out, out_pos));
}

JNI(jint, markDirect)(JNIEnv* env, jclass cls, jlong h, jlong user, jobject items, jlong pos,
                      jlong n, jlong now) {
  return seen_store_mark(STORE(h), (uint64_t)user, (const uint64_t*)direct(env, items, pos),
                         (size_t)n, (uint64_t)now);
}

/* The count taken, or below 0 the negated status. */
JNI(jlong, takeDirect)(JNIEnv* env, jclass cls, jlong h, jlong user, jobject candidates,
                       jlong pos, jlong n, jlong want, jlong now, jobject taken,
                       jlong taken_pos) {
  size_t count = 0;
  seen_status s = seen_store_take(STORE(h), (uint64_t)user,
                                  (const uint64_t*)direct(env, candidates, pos), (size_t)n,
                                  (size_t)want, (uint64_t)now,
                                  (uint64_t*)direct(env, taken, taken_pos), &count);
  return s == SEEN_OK ? (jlong)count : -(jlong)s;
}
