/* What the JNI files share: chunk sizes, the marker for a pending Java exception, throwing and
 * native copies, handles through out-parameters, single-key results, direct buffer addresses,
 * the window options and info that the window and the store both carry, and the
 * serialized-form, file and keyed entry points. Header-only (static functions and macros), so
 * each concept stays one .c file. */
#ifndef SEEN_JNI_COMMON_H
#define SEEN_JNI_COMMON_H

#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "seen.h"

/* Ids per critical section (or per copied chunk): about a tenth of a millisecond of probing. */
enum { ID_CHUNK = 1 << 14 };
/* Byte keys per critical section; their offsets are widened to 64 bits on the stack. */
enum { KEY_CHUNK = 512 };
/* Returned when a JNI call raised a Java exception; that exception wins over the value. */
enum { JAVA_EXCEPTION_PENDING = -1 };

/* A single-key result as one int: 0 or 1 is the flag (was_present, found), below 0 is -status. */
static inline jint flag_or_status(seen_status s, uint8_t flag) {
  return s == SEEN_OK ? flag : -(jint)s;
}

static inline void throw_class(JNIEnv* env, const char* cls, const char* message) {
  jclass c = (*env)->FindClass(env, cls);
  if (c != NULL) (*env)->ThrowNew(env, c, message);
}

/* Native memory for copies of Java arrays, or NULL with an OutOfMemoryError (oom_message)
 * pending. Never malloc(0), whose NULL would look like a failure. */
static inline void* alloc_or_throw(JNIEnv* env, size_t bytes, const char* oom_message) {
  void* p = malloc(bytes == 0 ? 1 : bytes);
  if (p == NULL) throw_class(env, "java/lang/OutOfMemoryError", oom_message);
  return p;
}

/* Throws io.seen.SeenException(status, message) (docs/errors.md). */
static inline void throw_seen(JNIEnv* env, seen_status s, const char* message) {
  jclass c = (*env)->FindClass(env, "io/seen/SeenException");
  if (c == NULL) return;
  jmethodID init = (*env)->GetMethodID(env, c, "<init>", "(ILjava/lang/String;)V");
  jstring text = init == NULL ? NULL : (*env)->NewStringUTF(env, message);
  jobject e = text == NULL ? NULL : (*env)->NewObject(env, c, init, (jint)s, text);
  if (e != NULL) (*env)->Throw(env, (jthrowable)e);
}

/* A call without a handle reports its failure in err, which only this native sees: so the
 * native throws it here, and returns s (Java sees the exception first). */
static inline jint checked(JNIEnv* env, seen_status s, const seen_error* err) {
  if (s != SEEN_OK) throw_seen(env, s, err->message);
  return s;
}

/* Returns a handle through out[0] when s is SEEN_OK, else throws err's failure. */
static inline jint handle_out(JNIEnv* env, jlongArray out, seen_status s, void* handle,
                              const seen_error* err) {
  if (s == SEEN_OK) {
    jlong h = (jlong)(intptr_t)handle;
    (*env)->SetLongArrayRegion(env, out, 0, 1, &h);
  }
  return checked(env, s, err);
}

/* lastError(h): the message of the last failure on a handle of this kind, which Java reads
 * after a native returned a failed status (NativeHandle.check). A macro for the reason given
 * at JNI_SERIALIZED_FORM below. */
#define JNI_LAST_ERROR(kind)                                  \
  JNI(jstring, lastError)(JNIEnv* env, jclass cls, jlong h) { \
    seen_error err;                                           \
    kind##_last_error((const kind*)(intptr_t)h, &err);        \
    return (*env)->NewStringUTF(env, err.message);            \
  }

static inline jlong double_bits(double d) {
  jlong bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

/* The address of byte pos of a direct buffer, or NULL for a NULL buffer (an out the call does
 * not fill). Direct buffers are native memory already, so no copy and no pinning; Java passed
 * positions already bounds-checked (and 8-byte aligned where they hold ids). */
static inline uint8_t* direct(JNIEnv* env, jobject buf, jlong pos) {
  return buf == NULL ? NULL : (uint8_t*)(*env)->GetDirectBufferAddress(env, buf) + pos;
}

/* Java validated the ranges: span and expected_items fit 32 bits. */
static inline seen_window_options window_options(jint mode, jint span, jint expected_items,
                                                 jdouble fpr, jdouble max_slack, jlong seed,
                                                 jlong max_bytes) {
  seen_window_options o;
  memset(&o, 0, sizeof o);
  o.size = sizeof o;
  o.mode = (uint32_t)mode;
  o.span = (uint32_t)span;
  o.expected_items = (uint32_t)expected_items;
  o.fpr = fpr;
  o.max_slack = max_slack;
  o.seed = (uint64_t)seed;
  o.max_bytes = (uint64_t)max_bytes;
  return o;
}

/* out: mode, layout, span, segments, state_bytes, raw bits of slack and of predicted_fpr,
 * seed: the layout WindowInfo.java reads. */
enum { WINDOW_INFO_LONGS = 8 };
static inline void window_info_out(JNIEnv* env, const seen_window_info* info, jlongArray out) {
  jlong v[WINDOW_INFO_LONGS] = {info->mode, info->layout, info->span, info->segments,
                                (jlong)info->state_bytes, double_bits(info->slack),
                                double_bits(info->predicted_fpr), (jlong)info->seed};
  (*env)->SetLongArrayRegion(env, out, 0, WINDOW_INFO_LONGS, v);
}

/* The serialized-form entry points (serializedSize, serialize, deserialize) of a kind, named
 * by its seen.h handle type, which prefixes its functions too. A macro, not a function, because
 * each kind's handle has its own type; it expands where that file's JNI() names its class.
 * serializedSize returns the bytes needed, or -status. The arrays are pinned, not copied: these
 * kinds' calls never wait on a lock (simhash_jni.c copies, as its may). */
#define JNI_SERIALIZED_FORM(kind)                                                             \
  JNI(jlong, serializedSize)(JNIEnv* env, jclass cls, jlong h) {                              \
    size_t written = 0;                                                                       \
    seen_status s = kind##_serialize((const kind*)(intptr_t)h, NULL, 0, &written);            \
    return s == SEEN_OK ? (jlong)written : -(jlong)s;                                         \
  }                                                                                           \
  JNI(jint, serialize)(JNIEnv* env, jclass cls, jlong h, jbyteArray out) {                    \
    jsize cap = (*env)->GetArrayLength(env, out);                                             \
    jbyte* p = (*env)->GetPrimitiveArrayCritical(env, out, NULL);                             \
    if (p == NULL) return JAVA_EXCEPTION_PENDING;                                             \
    size_t written = 0;                                                                       \
    seen_status s = kind##_serialize((const kind*)(intptr_t)h, (uint8_t*)p, (size_t)cap,      \
                                     &written);                                               \
    (*env)->ReleasePrimitiveArrayCritical(env, out, p, 0);                                    \
    return s;                                                                                 \
  }                                                                                           \
  JNI(jint, deserialize)(JNIEnv* env, jclass cls, jbyteArray buf, jint len, jlongArray out) { \
    jbyte* p = (*env)->GetPrimitiveArrayCritical(env, buf, NULL);                             \
    if (p == NULL) return JAVA_EXCEPTION_PENDING;                                             \
    kind* made = NULL;                                                                        \
    seen_error err;                                                                           \
    seen_status s = kind##_deserialize((const uint8_t*)p, (size_t)len, &made, &err);          \
    (*env)->ReleasePrimitiveArrayCritical(env, buf, p, JNI_ABORT);                            \
    return handle_out(env, out, s, made, &err);                                               \
  }

/* The file entry points (open, save) of a kind, a macro for the reason above. Paths arrive as
 * NUL-terminated UTF-8 bytes: JNI's modified UTF-8 would mangle some names. */
#define JNI_FILE(kind)                                                                    \
  JNI(jint, open)(JNIEnv* env, jclass cls, jbyteArray path, jint flags, jlongArray out) { \
    jbyte* p = (*env)->GetByteArrayElements(env, path, NULL);                             \
    if (p == NULL) return JAVA_EXCEPTION_PENDING;                                         \
    kind* opened = NULL;                                                                  \
    seen_error err;                                                                       \
    seen_status s = kind##_open((const char*)p, (uint32_t)flags, &opened, &err);          \
    (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);                            \
    return handle_out(env, out, s, opened, &err);                                         \
  }                                                                                       \
  JNI(jint, save)(JNIEnv* env, jclass cls, jlong h, jbyteArray path) {                    \
    jbyte* p = (*env)->GetByteArrayElements(env, path, NULL);                             \
    if (p == NULL) return JAVA_EXCEPTION_PENDING;                                         \
    seen_status s = kind##_save((const kind*)(intptr_t)h, (const char*)p);                \
    (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);                            \
    return s;                                                                             \
  }

/* The keyed entry points (openKeyed, deserializeKeyed) of a kind whose seen.h has
 * kind_open_keyed and kind_deserialize_keyed, a macro for the reason above. The key's bytes
 * are copied out of the array for the call only, never pinned: they must not outlive it. */
#define JNI_KEYED_FORMS(kind)                                                                  \
  JNI(jint, openKeyed)(JNIEnv* env, jclass cls, jbyteArray path, jint flags, jbyteArray key,   \
                       jlongArray out) {                                                       \
    jbyte* p = (*env)->GetByteArrayElements(env, path, NULL);                                  \
    if (p == NULL) return JAVA_EXCEPTION_PENDING;                                              \
    jbyte* k = (*env)->GetByteArrayElements(env, key, NULL);                                   \
    if (k == NULL) {                                                                           \
      (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);                               \
      return JAVA_EXCEPTION_PENDING;                                                           \
    }                                                                                          \
    kind* opened = NULL;                                                                       \
    seen_error err;                                                                            \
    seen_status s = kind##_open_keyed((const char*)p, (uint32_t)flags, (const uint8_t*)k,      \
                                      (size_t)(*env)->GetArrayLength(env, key), &opened, &err); \
    (*env)->ReleaseByteArrayElements(env, key, k, JNI_ABORT);                                  \
    (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);                                 \
    return handle_out(env, out, s, opened, &err);                                              \
  }                                                                                            \
  JNI(jint, deserializeKeyed)(JNIEnv* env, jclass cls, jbyteArray buf, jint len,               \
                              jbyteArray key, jlongArray out) {                                \
    jbyte* b = (*env)->GetByteArrayElements(env, buf, NULL);                                   \
    if (b == NULL) return JAVA_EXCEPTION_PENDING;                                              \
    jbyte* k = (*env)->GetByteArrayElements(env, key, NULL);                                   \
    if (k == NULL) {                                                                           \
      (*env)->ReleaseByteArrayElements(env, buf, b, JNI_ABORT);                                \
      return JAVA_EXCEPTION_PENDING;                                                           \
    }                                                                                          \
    kind* made = NULL;                                                                         \
    seen_error err;                                                                            \
    seen_status s = kind##_deserialize_keyed((const uint8_t*)b, (size_t)len, (const uint8_t*)k, \
                                             (size_t)(*env)->GetArrayLength(env, key), &made,  \
                                             &err);                                            \
    (*env)->ReleaseByteArrayElements(env, key, k, JNI_ABORT);                                  \
    (*env)->ReleaseByteArrayElements(env, buf, b, JNI_ABORT);                                  \
    return handle_out(env, out, s, made, &err);                                                \
  }

#endif /* SEEN_JNI_COMMON_H */
