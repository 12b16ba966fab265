/* JNI glue for io.seen.NativeCounting: what only the counting filter has (puts without a flag,
 * removes, its parameters), translated into seen.h calls and nothing else; its queries, adds
 * and forms are kinds_jni.c's. Heap arrays are pinned one chunk per critical section. A remove
 * batch goes on past a certainly-absent key (SEEN_ERR_NOT_FOUND from one chunk does not stop
 * the next) and reports NOT_FOUND once at the end, as the C call does for one batch. */
#include "jni_batch.h"

#define FILTER(h) ((seen_counting*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeCounting_##name

JNI_BLOCKED_CREATE(seen_counting)

JNI(jint, putLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_counting_add_one_u64(FILTER(h), (uint64_t)id);
}

JNI(jint, removeLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_counting_remove_one_u64(FILTER(h), (uint64_t)id);
}

/* One byte key key[off .. off+len), added or removed; returns the status. */
JNI(jint, oneKey)(JNIEnv* env, jclass cls, jlong h, jboolean remove, jbyteArray key, jint off,
                  jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  jint r = remove ? seen_counting_remove_one_key(FILTER(h), p + off, (size_t)len)
                  : seen_counting_add_one_key(FILTER(h), p + off, (size_t)len);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return r;
}

static seen_status remove_ids(void* f, const uint64_t* ids, size_t n, uint8_t* removed) {
  return seen_counting_remove_u64(f, ids, n, removed);
}

static seen_status remove_keys(void* f, const uint8_t* data, const uint64_t* offsets, size_t n,
                               uint8_t* removed) {
  return seen_counting_remove_keys(f, data, offsets, n, removed);
}

/* Removes ids[off .. off+len); removed (may be NULL) gets one jboolean per id from out_off. */
JNI(jint, removeLongs)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len,
                       jbooleanArray removed, jint out_off) {
  return ids_batch(env, ids, off, len, removed, out_off, SEEN_ERR_NOT_FOUND, remove_ids,
                   FILTER(h));
}

/* Byte keys first .. first+count of data + int offsets, removed as in removeLongs. */
JNI(jint, removeKeys)(JNIEnv* env, jclass cls, jlong h, jbyteArray data, jintArray offsets,
                      jint first, jint count, jbooleanArray removed, jint out_off) {
  return keys_batch(env, data, offsets, first, count, removed, out_off, SEEN_ERR_NOT_FOUND,
                    remove_keys, FILTER(h));
}

/* Direct buffers: removed may be NULL. */
JNI(jint, removeLongsDirect)(JNIEnv* env, jclass cls, jlong h, jobject ids, jlong pos, jlong n,
                             jobject removed, jlong removed_pos) {
  return remove_ids(FILTER(h), (const uint64_t*)direct(env, ids, pos), (size_t)n,
                    direct(env, removed, removed_pos));
}

JNI(jint, removeKeysDirect)(JNIEnv* env, jclass cls, jlong h, jobject data, jlong data_pos,
                            jobject offsets, jlong offsets_pos, jlong n, jobject removed,
                            jlong removed_pos) {
  return remove_keys(FILTER(h), direct(env, data, data_pos),
                     (const uint64_t*)direct(env, offsets, offsets_pos), (size_t)n,
                     direct(env, removed, removed_pos));
}

#define COUNTER_BITS(info) (jlong)(info).counter_bits
#define SATURATED(stats) (jdouble)(stats).saturated
JNI_BLOCKED_FIGURES(seen_counting, COUNTER_BITS, SATURATED)
