/* Batches over Java arrays, cut into chunks (jni_batch.c says why). */
#ifndef SEEN_JNI_BATCH_H
#define SEEN_JNI_BATCH_H

#include "jni_common.h"

/* One chunk's seen.h call: answers is NULL when the batch has no out array. */
typedef seen_status (*ids_chunk)(void* ctx, const uint64_t* ids, size_t n,
                                 uint8_t* answers);
typedef seen_status (*keys_chunk)(void* ctx, const uint8_t* data, const uint64_t* offsets,
                                  size_t n, uint8_t* answers);

/* ids[off .. off+len) through run; out (may be NULL) gets one jboolean per id from out_off.
 * The batch stops at the first failing chunk, except that a chunk failing with tolerated is
 * remembered and the batch goes on (SEEN_OK: none is). Returns the batch's status. */
jint ids_batch(JNIEnv* env, jlongArray ids, jint off, jint len, jbooleanArray out, jint out_off,
               seen_status tolerated, ids_chunk run, void* ctx);

/* Byte keys first .. first+count of data + int offsets (validated by Java), as ids_batch. Each
 * chunk widens its offsets to the uint64 layout seen.h takes. */
jint keys_batch(JNIEnv* env, jbyteArray data, jintArray offsets, jint first, jint count,
                jbooleanArray out, jint out_off, seen_status tolerated, keys_chunk run,
                void* ctx);

/* As ids_batch (stopping at the first failing chunk), but each chunk is copied into native
 * memory and its answers copied back, for calls that may wait on a lock and so must not run
 * inside a critical section. A failed allocation throws OutOfMemoryError(oom_message). */
jint copied_ids_batch(JNIEnv* env, jlongArray ids, jint off, jint len, jbooleanArray out,
                      jint out_off, const char* oom_message, ids_chunk run, void* ctx);


#endif /* SEEN_JNI_BATCH_H */
