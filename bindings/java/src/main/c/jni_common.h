/* What the JNI files share: chunk sizes, the marker for a pending Java exception, throwing and
 * native copies, handles through out-parameters, single-key results, direct buffer addresses,
 * secret keys for one call, the window options and info that the window and the store both
 * carry, and the create of the blocked kinds. Header-only (static functions and macros), so
 * each concept stays one .c file; kinds_jni.c has the calls every kind shares. */
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
 * after a native returned a failed status (NativeHandle.check), for the kinds kinds_jni.c does
 * not serve. A macro for the reason given at JNI_BLOCKED_CREATE below. */
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

/* A secret key for the length of one call: its bytes copied out of a Java array, never
 * pinned (they must not outlive the call), or none for a null array. key_bytes is NULL when
 * there is no key, or when the copy failed (then the array was not null and a Java exception
 * is pending: key_failed says which). */
typedef struct {
  jbyteArray array;
  jbyte* bytes;
  size_t len;
} call_key;

static inline call_key key_open(JNIEnv* env, jbyteArray array) {
  call_key k = {array, NULL, 0};
  if (array != NULL) {
    k.bytes = (*env)->GetByteArrayElements(env, array, NULL);
    k.len = (size_t)(*env)->GetArrayLength(env, array);
  }
  return k;
}

static inline int key_failed(const call_key* k) {
  return k->array != NULL && k->bytes == NULL;
}

static inline void key_close(JNIEnv* env, call_key* k) {
  if (k->bytes != NULL) (*env)->ReleaseByteArrayElements(env, k->array, k->bytes, JNI_ABORT);
}

/* Java validated the ranges: span and expected_items fit 32 bits. key: keyed mode if its
 * bytes are not NULL. */
static inline seen_window_options window_options(jint mode, jint span, jint expected_items,
                                                 jdouble fpr, jdouble max_slack, jlong seed,
                                                 jlong max_bytes, const call_key* key) {
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
  o.key = (const uint8_t*)key->bytes;
  o.key_len = key->bytes == NULL ? 0 : key->len;
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

/* create(expected, fpp, seed, key, out) of a kind sized like a blocked Bloom filter (the Bloom
 * and the counting filter): keyed (kind_create_keyed, which takes no seed) when key is not
 * null. A macro, not a function, because each kind's handle has its own
 * type; it expands where that file's JNI() names its class. */
#define JNI_BLOCKED_CREATE(kind)                                                                 \
  JNI(jint, create)(JNIEnv* env, jclass cls, jlong expected, jdouble fpp, jlong seed,            \
                    jbyteArray key, jlongArray out) {                                            \
    call_key k = key_open(env, key);                                                             \
    if (key_failed(&k)) return JAVA_EXCEPTION_PENDING;                                           \
    kind* made = NULL;                                                                           \
    seen_error err;                                                                              \
    seen_status s = k.bytes == NULL                                                              \
                        ? kind##_create((uint64_t)expected, fpp, (uint64_t)seed, &made, &err)    \
                        : kind##_create_keyed((uint64_t)expected, fpp, (const uint8_t*)k.bytes,  \
                                              k.len, &made, &err);                               \
    key_close(env, &k);                                                                          \
    return handle_out(env, out, s, made, &err);                                                  \
  }

/* params, stats, sync and clear of a blocked filter kind (Bloom, counting), in the layouts
 * FilterInfo.java and FilterStats.java read: params gets bytes, blocks, k, read_only, seed,
 * expected_items, the raw bits of target_fpr and the counter bits; stats gets fill_ratio,
 * approx_items, predicted_fpr and the saturated counters. counter_bits_of(p) and
 * saturated_of(st) read those two of the kind's info p and stats st (0 for a Bloom filter,
 * which has no counters). A macro for the reason JNI_BLOCKED_CREATE is one. */
#define JNI_BLOCKED_FIGURES(kind, counter_bits_of, saturated_of)                                 \
  JNI(jint, params)(JNIEnv* env, jclass cls, jlong h, jlongArray out) {                          \
    kind##_info p = {.size = sizeof p};                                                          \
    seen_status s = kind##_get_info((const kind*)(intptr_t)h, &p);                               \
    if (s != SEEN_OK) return s;                                                                  \
    jlong v[8] = {(jlong)p.bytes, (jlong)p.blocks,         p.k,                                  \
                  p.read_only,    (jlong)p.seed,           (jlong)p.expected_items,              \
                  double_bits(p.target_fpr), counter_bits_of(p)};                                \
    (*env)->SetLongArrayRegion(env, out, 0, 8, v);                                               \
    return SEEN_OK;                                                                              \
  }                                                                                              \
  JNI(jint, stats)(JNIEnv* env, jclass cls, jlong h, jdoubleArray out) {                         \
    kind##_stats st = {.size = sizeof st};                                                       \
    seen_status s = kind##_get_stats((const kind*)(intptr_t)h, &st);                             \
    if (s != SEEN_OK) return s;                                                                  \
    jdouble v[4] = {st.fill_ratio, st.approx_items, st.predicted_fpr, saturated_of(st)};         \
    (*env)->SetDoubleArrayRegion(env, out, 0, 4, v);                                             \
    return SEEN_OK;                                                                              \
  }                                                                                              \
  JNI(jint, sync)(JNIEnv* env, jclass cls, jlong h) {                                            \
    return kind##_sync((kind*)(intptr_t)h);                                                      \
  }                                                                                              \
  JNI(jint, clear)(JNIEnv* env, jclass cls, jlong h) {                                           \
    return kind##_clear((kind*)(intptr_t)h);                                                     \
  }

#endif /* SEEN_JNI_COMMON_H */
