/* JNI glue for io.seen.NativeMinHash: the calls of MinHash indexes (seen_minhash_index_*) that
 * are theirs alone; free, last error, serialized form and file are kinds_jni.c's. Texts arrive
 * as UTF-8 byte arrays, copied out for the call; every native returns a seen_status, or a value
 * that encodes one (negated). */
#include "jni_common.h"

#define INDEX(h) ((seen_minhash_index*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeMinHash_##name

/* key may be null (no key). */
JNI(jint, create)(JNIEnv* env, jclass cls, jdouble threshold, jbyteArray key, jlongArray out) {
  seen_minhash_options o;
  memset(&o, 0, sizeof o);
  o.size = sizeof o;
  o.threshold = threshold;
  call_key k = key_open(env, key);
  if (key_failed(&k)) return JAVA_EXCEPTION_PENDING;
  o.key = (const uint8_t*)k.bytes;
  o.key_len = k.len;
  seen_minhash_index* x = NULL;
  seen_error err;
  seen_status s = seen_minhash_index_create(&o, &x, &err);
  key_close(env, &k);
  return handle_out(env, out, s, x, &err);
}

JNI(jint, add)(JNIEnv* env, jclass cls, jlong h, jlong id, jbyteArray text) {
  jbyte* t = (*env)->GetByteArrayElements(env, text, NULL);
  if (t == NULL) return JAVA_EXCEPTION_PENDING;
  seen_status s = seen_minhash_index_add_text(INDEX(h), (uint64_t)id, (const char*)t,
                                              (size_t)(*env)->GetArrayLength(env, text));
  (*env)->ReleaseByteArrayElements(env, text, t, JNI_ABORT);
  return s;
}

/* 1 if id was stored, 0 if not, below 0 the negated status. */
JNI(jint, remove)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  int removed = 0;
  seen_status s = seen_minhash_index_remove(INDEX(h), (uint64_t)id, &removed);
  return s == SEEN_OK ? removed : -(jint)s;
}

/* Writes up to ids.length matches; returns how many there are (more than ids.length: call
 * again with room), or below 0 the negated status. */
JNI(jlong, query)(JNIEnv* env, jclass cls, jlong h, jbyteArray text, jlongArray ids,
                  jdoubleArray similarities) {
  jsize cap = (*env)->GetArrayLength(env, ids);
  jbyte* t = (*env)->GetByteArrayElements(env, text, NULL);
  if (t == NULL) return JAVA_EXCEPTION_PENDING;
  jlong* i = (*env)->GetLongArrayElements(env, ids, NULL);
  jdouble* d = i == NULL ? NULL : (*env)->GetDoubleArrayElements(env, similarities, NULL);
  if (i == NULL || d == NULL) {
    if (i != NULL) (*env)->ReleaseLongArrayElements(env, ids, i, JNI_ABORT);
    (*env)->ReleaseByteArrayElements(env, text, t, JNI_ABORT);
    return JAVA_EXCEPTION_PENDING;
  }
  size_t found = 0;
  seen_status s = seen_minhash_index_query_text(INDEX(h), (const char*)t,
                                                (size_t)(*env)->GetArrayLength(env, text),
                                                (uint64_t*)i, d, (size_t)cap, &found);
  (*env)->ReleaseDoubleArrayElements(env, similarities, d, 0);
  (*env)->ReleaseLongArrayElements(env, ids, i, 0);
  (*env)->ReleaseByteArrayElements(env, text, t, JNI_ABORT);
  return s == SEEN_OK || s == SEEN_ERR_BUFFER_TOO_SMALL ? (jlong)found : -(jlong)s;
}

JNI(jlong, size)(JNIEnv* env, jclass cls, jlong h) {
  uint64_t texts = 0;
  seen_status s = seen_minhash_index_size(INDEX(h), &texts, NULL);
  return s == SEEN_OK ? (jlong)texts : -(jlong)s;
}
