/* The chunked batch loops the filter kinds share. Heap arrays are pinned with
 * GetPrimitiveArrayCritical, which may stall the garbage collector, so long batches are cut into
 * chunks and each chunk gets its own short critical section; a kind supplies only the seen.h
 * call for one chunk. Kinds whose calls may wait on a lock copy each chunk instead (see
 * store_jni.c). When a JNI call fails it has already raised a Java exception: return at once. */
#include "jni_batch.h"

/* Pins a chunk's input array, then out when the batch has one, each in a critical section:
 * answers then points at the chunk's first answer (jboolean is one byte holding 0 or 1:
 * exactly seen's result layout). Returns the input's elements, or NULL, with nothing left
 * pinned, when the JVM refused. */
static void* pin_chunk(JNIEnv* env, jarray in, jbooleanArray out, jint at, jboolean** q,
                       uint8_t** answers) {
  *q = NULL;
  *answers = NULL;
  void* p = (*env)->GetPrimitiveArrayCritical(env, in, NULL);
  if (p == NULL || out == NULL) return p;
  *q = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
  if (*q == NULL) {
    (*env)->ReleasePrimitiveArrayCritical(env, in, p, JNI_ABORT);
    return NULL;
  }
  *answers = (uint8_t*)(*q + at);
  return p;
}

/* Ends the critical sections of pin_chunk: out's answers are written back, the input is not. */
static void unpin_chunk(JNIEnv* env, jarray in, void* p, jbooleanArray out, jboolean* q) {
  if (q != NULL) (*env)->ReleasePrimitiveArrayCritical(env, out, q, 0);
  (*env)->ReleasePrimitiveArrayCritical(env, in, p, JNI_ABORT);
}

/* Whether the batch goes on after a chunk; *batch keeps the status to return. */
static int keep_going(seen_status chunk, seen_status tolerated, seen_status* batch) {
  if (chunk == SEEN_OK) return 1;
  *batch = chunk;
  return chunk == tolerated;
}

jint ids_batch(JNIEnv* env, jlongArray ids, jint off, jint len, jbooleanArray out, jint out_off,
               seen_status tolerated, ids_chunk run, void* ctx) {
  seen_status batch = SEEN_OK;
  seen_status s = SEEN_OK;
  for (jint done = 0; done < len && keep_going(s, tolerated, &batch); done += ID_CHUNK) {
    jint n = len - done < ID_CHUNK ? len - done : ID_CHUNK;
    jboolean* q;
    uint8_t* answers;
    jlong* p = pin_chunk(env, ids, out, out_off + done, &q, &answers);
    if (p == NULL) return JAVA_EXCEPTION_PENDING;
    s = run(ctx, (const uint64_t*)(p + off + done), (size_t)n, answers);
    unpin_chunk(env, ids, p, out, q);
  }
  keep_going(s, tolerated, &batch);
  return batch;
}

jint keys_batch(JNIEnv* env, jbyteArray data, jintArray offsets, jint first, jint count,
                jbooleanArray out, jint out_off, seen_status tolerated, keys_chunk run,
                void* ctx) {
  uint64_t wide[KEY_CHUNK + 1];
  jint narrow[KEY_CHUNK + 1];
  seen_status batch = SEEN_OK;
  seen_status s = SEEN_OK;
  for (jint done = 0; done < count && keep_going(s, tolerated, &batch); done += KEY_CHUNK) {
    jint n = count - done < KEY_CHUNK ? count - done : KEY_CHUNK;
    (*env)->GetIntArrayRegion(env, offsets, first + done, n + 1, narrow);
    if ((*env)->ExceptionCheck(env)) return JAVA_EXCEPTION_PENDING;
    for (jint i = 0; i <= n; i++) wide[i] = (uint64_t)narrow[i];
    jboolean* q;
    uint8_t* answers;
    jbyte* d = pin_chunk(env, data, out, out_off + done, &q, &answers);
    if (d == NULL) return JAVA_EXCEPTION_PENDING;
    s = run(ctx, (const uint8_t*)d, wide, (size_t)n, answers);
    unpin_chunk(env, data, d, out, q);
  }
  keep_going(s, tolerated, &batch);
  return batch;
}

jint copied_ids_batch(JNIEnv* env, jlongArray ids, jint off, jint len, jbooleanArray out,
                      jint out_off, const char* oom_message, ids_chunk run, void* ctx) {
  jint chunk = len < ID_CHUNK ? len : ID_CHUNK;
  size_t answer_bytes = out == NULL ? 0 : 1;
  uint64_t* copy = alloc_or_throw(env, (size_t)chunk * (sizeof *copy + answer_bytes), oom_message);
  if (copy == NULL) return JAVA_EXCEPTION_PENDING;
  uint8_t* answers = out == NULL ? NULL : (uint8_t*)(copy + chunk);
  seen_status s = SEEN_OK;
  for (jint done = 0; done < len && s == SEEN_OK; done += ID_CHUNK) {
    jint n = len - done < ID_CHUNK ? len - done : ID_CHUNK;
    (*env)->GetLongArrayRegion(env, ids, off + done, n, (jlong*)copy);
    if ((*env)->ExceptionCheck(env)) break;
    s = run(ctx, copy, (size_t)n, answers);
    if (s == SEEN_OK && out != NULL) {
      (*env)->SetBooleanArrayRegion(env, out, out_off + done, n, (const jboolean*)answers);
    }
    if ((*env)->ExceptionCheck(env)) break;
  }
  free(copy);
  return (*env)->ExceptionCheck(env) ? JAVA_EXCEPTION_PENDING : (jint)s;
}
