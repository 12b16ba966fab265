/* JNI glue for io.seen.NativeKinds: the calls that every kind of native object has alike
 * (free, last error, serialized form, file), and the queries and batches the filters have
 * alike, each written once and dispatched by the kind's code, the ordinal of io.seen.Kind.
 * Each kind's seen.h functions are wrapped behind one signature (void* handles), so that no
 * call goes through a function pointer of another type. */
#include "jni_batch.h"

#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeKinds_##name

/* The codes of io.seen.Kind, in its order. */
enum {
  KIND_BLOOM,
  KIND_COUNTING,
  KIND_SCALABLE,
  KIND_WINDOW,
  KIND_STORE,
  KIND_MINHASH,
  KIND_COUNT
};

typedef struct {
  void (*free)(void* h);
  void (*last_error)(const void* h, seen_error* err);
  seen_status (*serialize)(const void* h, uint8_t* buf, size_t cap, size_t* written);
  /* key NULL: the unkeyed form. */
  seen_status (*deserialize)(const uint8_t* buf, size_t len, const uint8_t* key, size_t key_len,
                             void** out, seen_error* err);
  seen_status (*open)(const char* path, uint32_t flags, const uint8_t* key, size_t key_len,
                      void** out, seen_error* err);
  seen_status (*save)(const void* h, const char* path);
  int (*contains_one_u64)(const void* h, uint64_t id);
  int (*contains_one_key)(const void* h, const void* key, size_t len);
  ids_chunk add_or_test_ids;   /* answers NULL: add */
  keys_chunk add_or_test_keys; /* likewise */
  seen_status (*add_one_u64)(void* h, uint64_t id, uint8_t* was_present);
  seen_status (*add_one_key)(void* h, const void* key, size_t len, uint8_t* was_present);
  /* Whether serialize may wait on a lock (a MinHash index settles its tables under one first):
   * no lock may be waited on while a Java array is pinned in a critical section. */
  int serialize_waits;
} kind_calls;

#define HANDLE_CALLS(kind)                                            \
  static void kind##_free_any(void* h) {                              \
    kind##_free(h);                                                   \
  }                                                                   \
  static void kind##_last_error_any(const void* h, seen_error* err) { \
    kind##_last_error(h, err);                                        \
  }

#define SAVE_CALL(kind)                                                \
  static seen_status kind##_save_any(const void* h, const char* path) { \
    return kind##_save(h, path);                                        \
  }

/* Open and deserialize of the kinds with a separate _keyed call for the keyed form. */
#define FILE_CALLS(kind)                                                                 \
  SAVE_CALL(kind)                                                                        \
  static seen_status kind##_open_any(const char* path, uint32_t flags, const uint8_t* key, \
                                     size_t key_len, void** out, seen_error* err) {      \
    kind* made = NULL;                                                                   \
    seen_status s = key == NULL ? kind##_open(path, flags, &made, err)                   \
                                : kind##_open_keyed(path, flags, key, key_len, &made, err); \
    *out = made;                                                                         \
    return s;                                                                            \
  }

#define SERIALIZE_CALL(kind)                                                           \
  static seen_status kind##_serialize_any(const void* h, uint8_t* buf, size_t cap,     \
                                          size_t* written) {                           \
    return kind##_serialize(h, buf, cap, written);                                     \
  }

#define BYTES_CALLS(kind)                                                                    \
  SERIALIZE_CALL(kind)                                                                       \
  static seen_status kind##_deserialize_any(const uint8_t* buf, size_t len,                  \
                                            const uint8_t* key, size_t key_len, void** out,  \
                                            seen_error* err) {                               \
    kind* made = NULL;                                                                       \
    seen_status s = key == NULL ? kind##_deserialize(buf, len, &made, err)                   \
                                : kind##_deserialize_keyed(buf, len, key, key_len, &made, err); \
    *out = made;                                                                             \
    return s;                                                                                \
  }

#define SET_CALLS(kind)                                                                       \
  static int kind##_contains_one_u64_any(const void* h, uint64_t id) {                        \
    return kind##_contains_one_u64(h, id);                                                    \
  }                                                                                           \
  static int kind##_contains_one_key_any(const void* h, const void* key, size_t len) {        \
    return kind##_contains_one_key(h, key, len);                                              \
  }                                                                                           \
  static seen_status kind##_ids_any(void* h, const uint64_t* ids, size_t n, uint8_t* answers) { \
    return answers == NULL ? kind##_add_u64(h, ids, n) : kind##_contains_u64(h, ids, n, answers); \
  }                                                                                           \
  static seen_status kind##_keys_any(void* h, const uint8_t* data, const uint64_t* offsets,   \
                                     size_t n, uint8_t* answers) {                            \
    return answers == NULL ? kind##_add_keys(h, data, offsets, n)                             \
                           : kind##_contains_keys(h, data, offsets, n, answers);              \
  }

/* A put that reports whether the key looked present already (Bloom, scalable). */
#define ADD_ONCE_CALLS(kind)                                                                  \
  static seen_status kind##_add_one_u64_any(void* h, uint64_t id, uint8_t* was_present) {     \
    return kind##_add_one_u64(h, id, was_present);                                            \
  }                                                                                           \
  static seen_status kind##_add_one_key_any(void* h, const void* key, size_t len,             \
                                            uint8_t* was_present) {                           \
    return kind##_add_one_key(h, key, len, was_present);                                      \
  }

HANDLE_CALLS(seen_bloom)
FILE_CALLS(seen_bloom)
BYTES_CALLS(seen_bloom)
SET_CALLS(seen_bloom)
ADD_ONCE_CALLS(seen_bloom)
HANDLE_CALLS(seen_counting)
FILE_CALLS(seen_counting)
BYTES_CALLS(seen_counting)
SET_CALLS(seen_counting)
HANDLE_CALLS(seen_scalable)
FILE_CALLS(seen_scalable)
BYTES_CALLS(seen_scalable)
SET_CALLS(seen_scalable)
ADD_ONCE_CALLS(seen_scalable)
HANDLE_CALLS(seen_window)
BYTES_CALLS(seen_window)
HANDLE_CALLS(seen_store)
FILE_CALLS(seen_store)
HANDLE_CALLS(seen_minhash_index)
SAVE_CALL(seen_minhash_index)
SERIALIZE_CALL(seen_minhash_index)

/* A MinHash index takes its key (NULL for none) in the one call. */
static seen_status seen_minhash_index_open_any(const char* path, uint32_t flags,
                                               const uint8_t* key, size_t key_len, void** out,
                                               seen_error* err) {
  seen_minhash_index* made = NULL;
  seen_status s = seen_minhash_index_open(path, flags, key, key_len, &made, err);
  *out = made;
  return s;
}

static seen_status seen_minhash_index_deserialize_any(const uint8_t* buf, size_t len,
                                                      const uint8_t* key, size_t key_len,
                                                      void** out, seen_error* err) {
  seen_minhash_index* made = NULL;
  seen_status s = seen_minhash_index_deserialize(buf, len, key, key_len, &made, err);
  *out = made;
  return s;
}

#define WITH_HANDLE(kind) .free = kind##_free_any, .last_error = kind##_last_error_any
#define WITH_FILE(kind) .save = kind##_save_any, .open = kind##_open_any
#define WITH_BYTES(kind) .serialize = kind##_serialize_any, .deserialize = kind##_deserialize_any
#define WITH_SET(kind)                                                                     \
  .contains_one_u64 = kind##_contains_one_u64_any,                                         \
  .contains_one_key = kind##_contains_one_key_any, .add_or_test_ids = kind##_ids_any,      \
  .add_or_test_keys = kind##_keys_any
#define WITH_ADD_ONCE(kind) \
  .add_one_u64 = kind##_add_one_u64_any, .add_one_key = kind##_add_one_key_any

/* Java passes only the codes of kinds that have the call it makes (Kind.java); the calls a
 * kind lacks stay NULL. */
static const kind_calls KINDS[KIND_COUNT] = {
    [KIND_BLOOM] = {WITH_HANDLE(seen_bloom), WITH_FILE(seen_bloom), WITH_BYTES(seen_bloom),
                    WITH_SET(seen_bloom), WITH_ADD_ONCE(seen_bloom)},
    [KIND_COUNTING] = {WITH_HANDLE(seen_counting), WITH_FILE(seen_counting),
                       WITH_BYTES(seen_counting), WITH_SET(seen_counting)},
    [KIND_SCALABLE] = {WITH_HANDLE(seen_scalable), WITH_FILE(seen_scalable),
                       WITH_BYTES(seen_scalable), WITH_SET(seen_scalable),
                       WITH_ADD_ONCE(seen_scalable)},
    [KIND_WINDOW] = {WITH_HANDLE(seen_window), WITH_BYTES(seen_window)},
    [KIND_STORE] = {WITH_HANDLE(seen_store), WITH_FILE(seen_store)},
    [KIND_MINHASH] = {WITH_HANDLE(seen_minhash_index), WITH_FILE(seen_minhash_index),
                      WITH_BYTES(seen_minhash_index), .serialize_waits = 1},
};

#define CALLS(kind) (&KINDS[kind])
#define HANDLE_OF(h) ((void*)(intptr_t)(h))

JNI(void, free)(JNIEnv* env, jclass cls, jint kind, jlong h) {
  CALLS(kind)->free(HANDLE_OF(h));
}

/* The message of the last failure on h, which Java reads after a native returned a failed
 * status (NativeHandle.check). */
JNI(jstring, lastError)(JNIEnv* env, jclass cls, jint kind, jlong h) {
  seen_error err;
  CALLS(kind)->last_error(HANDLE_OF(h), &err);
  return (*env)->NewStringUTF(env, err.message);
}

/* The bytes the serialized form needs, or -status. */
JNI(jlong, serializedSize)(JNIEnv* env, jclass cls, jint kind, jlong h) {
  size_t written = 0;
  seen_status s = CALLS(kind)->serialize(HANDLE_OF(h), NULL, 0, &written);
  return s == SEEN_OK ? (jlong)written : -(jlong)s;
}

/* The array is pinned, not copied, unless the kind's serialize may wait on a lock. */
JNI(jint, serialize)(JNIEnv* env, jclass cls, jint kind, jlong h, jbyteArray out) {
  int pin = !CALLS(kind)->serialize_waits;
  jsize cap = (*env)->GetArrayLength(env, out);
  jbyte* p = pin ? (*env)->GetPrimitiveArrayCritical(env, out, NULL)
                 : (*env)->GetByteArrayElements(env, out, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  size_t written = 0;
  seen_status s = CALLS(kind)->serialize(HANDLE_OF(h), (uint8_t*)p, (size_t)cap, &written);
  if (pin) {
    (*env)->ReleasePrimitiveArrayCritical(env, out, p, 0);
  } else {
    (*env)->ReleaseByteArrayElements(env, out, p, 0);
  }
  return s;
}

/* How made_from reaches a kind's deserialize or open with the bytes it was given. */
typedef seen_status (*make_call)(const kind_calls* calls, const jbyte* bytes, jsize len,
                                 jint flags, const call_key* k, void** out, seen_error* err);

/* The handle a kind's deserialize or open makes from bytes (a form or a NUL-terminated path)
 * under key (null: an unkeyed one), put in out. The key is copied (call_key); the bytes are
 * pinned when pin is set, else copied, as for a call that does I/O. */
static jint made_from(JNIEnv* env, jint kind, jbyteArray bytes, int pin, jint flags,
                      jbyteArray key, jlongArray out, make_call make) {
  call_key k = key_open(env, key);
  if (key_failed(&k)) return JAVA_EXCEPTION_PENDING;
  jsize len = (*env)->GetArrayLength(env, bytes);
  jbyte* p = pin ? (*env)->GetPrimitiveArrayCritical(env, bytes, NULL)
                 : (*env)->GetByteArrayElements(env, bytes, NULL);
  void* made = NULL;
  seen_error err;
  seen_status s = SEEN_OK;
  if (p != NULL) {
    s = make(CALLS(kind), p, len, flags, &k, &made, &err);
    if (pin) {
      (*env)->ReleasePrimitiveArrayCritical(env, bytes, p, JNI_ABORT);
    } else {
      (*env)->ReleaseByteArrayElements(env, bytes, p, JNI_ABORT);
    }
  }
  key_close(env, &k);
  return p == NULL ? JAVA_EXCEPTION_PENDING : handle_out(env, out, s, made, &err);
}

static seen_status deserialize_call(const kind_calls* calls, const jbyte* bytes, jsize len,
                                    jint flags, const call_key* k, void** out, seen_error* err) {
  return calls->deserialize((const uint8_t*)bytes, (size_t)len, (const uint8_t*)k->bytes, k->len,
                            out, err);
}

static seen_status open_call(const kind_calls* calls, const jbyte* path, jsize len, jint flags,
                             const call_key* k, void** out, seen_error* err) {
  return calls->open((const char*)path, (uint32_t)flags, (const uint8_t*)k->bytes, k->len, out,
                     err);
}

/* key null: an unkeyed form. The bytes are pinned: deserializing does no I/O. */
JNI(jint, deserialize)(JNIEnv* env, jclass cls, jint kind, jbyteArray buf, jbyteArray key,
                       jlongArray out) {
  return made_from(env, kind, buf, 1, 0, key, out, deserialize_call);
}

/* Paths arrive as NUL-terminated UTF-8 bytes: JNI's modified UTF-8 would mangle some names. */
JNI(jint, open)(JNIEnv* env, jclass cls, jint kind, jbyteArray path, jint flags, jbyteArray key,
                jlongArray out) {
  return made_from(env, kind, path, 0, flags, key, out, open_call);
}

JNI(jint, save)(JNIEnv* env, jclass cls, jint kind, jlong h, jbyteArray path) {
  jbyte* p = (*env)->GetByteArrayElements(env, path, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  seen_status s = CALLS(kind)->save(HANDLE_OF(h), (const char*)p);
  (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);
  return s;
}

/* Puts of Bloom and scalable filters: 1 if the id already looked present (nothing changed), 0
 * if not, below 0 the negated status. */
JNI(jint, putLong)(JNIEnv* env, jclass cls, jint kind, jlong h, jlong id) {
  uint8_t was_present = 0;
  seen_status s = CALLS(kind)->add_one_u64(HANDLE_OF(h), (uint64_t)id, &was_present);
  return flag_or_status(s, was_present);
}

/* As putLong, for the key key[off .. off+len). */
JNI(jint, putBytes)(JNIEnv* env, jclass cls, jint kind, jlong h, jbyteArray key, jint off,
                    jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  uint8_t was_present = 0;
  seen_status s = CALLS(kind)->add_one_key(HANDLE_OF(h), p + off, (size_t)len, &was_present);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return flag_or_status(s, was_present);
}

/* 1 if the id may be present, else 0. */
JNI(jint, testLong)(JNIEnv* env, jclass cls, jint kind, jlong h, jlong id) {
  return CALLS(kind)->contains_one_u64(HANDLE_OF(h), (uint64_t)id);
}

/* As testLong, for the key key[off .. off+len). */
JNI(jint, testBytes)(JNIEnv* env, jclass cls, jint kind, jlong h, jbyteArray key, jint off,
                     jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  int r = CALLS(kind)->contains_one_key(HANDLE_OF(h), p + off, (size_t)len);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return r;
}

/* ids[off .. off+len): added when out is null, else queried into out from out_off. */
JNI(jint, longs)(JNIEnv* env, jclass cls, jint kind, jlong h, jlongArray ids, jint off,
                 jint len, jbooleanArray out, jint out_off) {
  return ids_batch(env, ids, off, len, out, out_off, SEEN_OK, CALLS(kind)->add_or_test_ids,
                   HANDLE_OF(h));
}

/* Byte keys first .. first+count of data + int offsets, as longs. */
JNI(jint, keys)(JNIEnv* env, jclass cls, jint kind, jlong h, jbyteArray data, jintArray offsets,
                jint first, jint count, jbooleanArray out, jint out_off) {
  return keys_batch(env, data, offsets, first, count, out, out_off, SEEN_OK,
                    CALLS(kind)->add_or_test_keys, HANDLE_OF(h));
}

/* Direct buffers, as longs: out is null for adds. */
JNI(jint, longsDirect)(JNIEnv* env, jclass cls, jint kind, jlong h, jobject ids, jlong pos,
                       jlong n, jobject out, jlong out_pos) {
  return CALLS(kind)->add_or_test_ids(HANDLE_OF(h), (const uint64_t*)direct(env, ids, pos),
                                      (size_t)n, direct(env, out, out_pos));
}

JNI(jint, keysDirect)(JNIEnv* env, jclass cls, jint kind, jlong h, jobject data, jlong data_pos,
                      jobject offsets, jlong offsets_pos, jlong n, jobject out, jlong out_pos) {
  return CALLS(kind)->add_or_test_keys(HANDLE_OF(h), direct(env, data, data_pos),
                                       (const uint64_t*)direct(env, offsets, offsets_pos),
                                       (size_t)n, direct(env, out, out_pos));
}
