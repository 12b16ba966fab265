/* JNI glue for io.seen.NativeMinHash: MinHash indexes (seen_minhash_index_*). Texts arrive as
 * UTF-8 byte arrays, copied out for the call; every native returns a seen_status, or a value
 * that encodes one (negated). */
#include "jni_common.h"

#define INDEX(h) ((seen_minhash_index*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeMinHash_##name

JNI_LAST_ERROR(seen_minhash_index)

/* key may be null (no key). */
JNI(jint, create)(JNIEnv* env, jclass cls, jdouble threshold, jbyteArray key, jlongArray out) {
  seen_minhash_options o;
  memset(&o, 0, sizeof o);
  o.size = sizeof o;
  o.threshold = threshold;
  jbyte* k = NULL;
  if (key != NULL) {
    k = (*env)->GetByteArrayElements(env, key, NULL);
    if (k == NULL) return JAVA_EXCEPTION_PENDING;
    o.key = (const uint8_t*)k;
    o.key_len = (size_t)(*env)->GetArrayLength(env, key);
  }
  seen_minhash_index* x = NULL;
  seen_error err;
  seen_status s = seen_minhash_index_create(&o, &x, &err);
  if (k != NULL) (*env)->ReleaseByteArrayElements(env, key, k, JNI_ABORT);
  return handle_out(env, out, s, x, &err);
}

JNI(void, free)(JNIEnv* env, jclass cls, jlong h) { seen_minhash_index_free(INDEX(h)); }

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

/* Bytes needed to serialize, or -status. */
JNI(jlong, serializedSize)(JNIEnv* env, jclass cls, jlong h) {
  size_t written = 0;
  seen_status s = seen_minhash_index_serialize(INDEX(h), NULL, 0, &written);
  return s == SEEN_OK ? (jlong)written : -(jlong)s;
}

JNI(jint, serialize)(JNIEnv* env, jclass cls, jlong h, jbyteArray out) {
  jbyte* p = (*env)->GetByteArrayElements(env, out, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  size_t written = 0;
  seen_status s = seen_minhash_index_serialize(INDEX(h), (uint8_t*)p, (size_t)(*env)->GetArrayLength(env, out),
                                               &written);
  (*env)->ReleaseByteArrayElements(env, out, p, 0);
  return s;
}

/* key may be null (no key). */
JNI(jint, deserialize)(JNIEnv* env, jclass cls, jbyteArray buf, jbyteArray key, jlongArray out) {
  jbyte* b = (*env)->GetByteArrayElements(env, buf, NULL);
  if (b == NULL) return JAVA_EXCEPTION_PENDING;
  jbyte* k = key == NULL ? NULL : (*env)->GetByteArrayElements(env, key, NULL);
  if (key != NULL && k == NULL) {
    (*env)->ReleaseByteArrayElements(env, buf, b, JNI_ABORT);
    return JAVA_EXCEPTION_PENDING;
  }
  seen_minhash_index* x = NULL;
  seen_error err;
  seen_status s = seen_minhash_index_deserialize((const uint8_t*)b, (size_t)(*env)->GetArrayLength(env, buf),
                                                 (const uint8_t*)k,
                                                 key == NULL ? 0 : (size_t)(*env)->GetArrayLength(env, key), &x, &err);
  if (k != NULL) (*env)->ReleaseByteArrayElements(env, key, k, JNI_ABORT);
  (*env)->ReleaseByteArrayElements(env, buf, b, JNI_ABORT);
  return handle_out(env, out, s, x, &err);
}

JNI(jint, save)(JNIEnv* env, jclass cls, jlong h, jbyteArray path) {
  jbyte* p = (*env)->GetByteArrayElements(env, path, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  seen_status s = seen_minhash_index_save(INDEX(h), (const char*)p);
  (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);
  return s;
}

/* path is NUL-terminated UTF-8; key may be null (no key). */
JNI(jint, open)(JNIEnv* env, jclass cls, jbyteArray path, jbyteArray key, jlongArray out) {
  jbyte* p = (*env)->GetByteArrayElements(env, path, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  jbyte* k = key == NULL ? NULL : (*env)->GetByteArrayElements(env, key, NULL);
  if (key != NULL && k == NULL) {
    (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);
    return JAVA_EXCEPTION_PENDING;
  }
  seen_minhash_index* x = NULL;
  seen_error err;
  seen_status s = seen_minhash_index_open((const char*)p, SEEN_OPEN_PRIVATE_COPY, (const uint8_t*)k,
                                          key == NULL ? 0 : (size_t)(*env)->GetArrayLength(env, key), &x, &err);
  if (k != NULL) (*env)->ReleaseByteArrayElements(env, key, k, JNI_ABORT);
  (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);
  return handle_out(env, out, s, x, &err);
}
