/* JNI glue for io.seen.NativeCounting: the counting filter, translated into seen.h calls and
 * nothing else (see bloom_jni.c for the conventions). Heap arrays are pinned one chunk per
 * critical section. A remove batch goes on past a certainly-absent key (SEEN_ERR_NOT_FOUND
 * from one chunk does not stop the next) and reports NOT_FOUND once at the end, as the C call
 * does for one batch. */
#include "jni_common.h"

#define FILTER(h) ((seen_counting*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeCounting_##name

/* The batch operations; the values are NativeCounting's ADD, REMOVE and CONTAINS. */
enum { OP_ADD = 0, OP_REMOVE = 1, OP_CONTAINS = 2 };

/* The status of a whole batch so far, given the status of its latest chunk: NOT_FOUND is
 * remembered but does not end the batch; any other failure does. */
static int keep_going(seen_status chunk, seen_status* batch) {
  if (chunk == SEEN_ERR_NOT_FOUND) {
    *batch = SEEN_ERR_NOT_FOUND;
    return 1;
  }
  if (chunk != SEEN_OK) {
    *batch = chunk;
    return 0;
  }
  return 1;
}

JNI(jint, create)(JNIEnv* env, jclass cls, jlong expected, jdouble fpp, jlong seed,
                  jlongArray out) {
  seen_counting* f = NULL;
  seen_status s = seen_counting_create((uint64_t)expected, fpp, (uint64_t)seed, &f);
  return handle_out(env, out, s, f);
}

JNI(void, free)(JNIEnv* env, jclass cls, jlong h) {
  seen_counting_free(FILTER(h));
}

JNI(jint, putLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_counting_put_u64(FILTER(h), (uint64_t)id);
}

JNI(jint, removeLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_counting_delete_u64(FILTER(h), (uint64_t)id);
}

JNI(jint, testLong)(JNIEnv* env, jclass cls, jlong h, jlong id) {
  return seen_counting_test_u64(FILTER(h), (uint64_t)id);
}

/* One byte key key[off .. off+len): op ADD or REMOVE returns a status, CONTAINS 1 or 0. */
JNI(jint, oneKey)(JNIEnv* env, jclass cls, jlong h, jint op, jbyteArray key, jint off,
                  jint len) {
  jbyte* p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  jint r;
  if (op == OP_ADD) {
    r = seen_counting_put_key(FILTER(h), p + off, (size_t)len);
  } else if (op == OP_REMOVE) {
    r = seen_counting_delete_key(FILTER(h), p + off, (size_t)len);
  } else {
    r = seen_counting_test_key(FILTER(h), p + off, (size_t)len);
  }
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return r;
}

/* ids[off .. off+len) through op; out (answers for CONTAINS, removed flags for REMOVE; NULL
 * for ADD, and may be NULL for REMOVE) gets one jboolean per id from out_off. jboolean is one
 * byte holding 0 or 1: exactly seen's result layout. */
JNI(jint, longs)(JNIEnv* env, jclass cls, jlong h, jint op, jlongArray ids, jint off, jint len,
                 jbooleanArray out, jint out_off) {
  seen_status batch = SEEN_OK;
  seen_status s = SEEN_OK;
  for (jint done = 0; done < len && keep_going(s, &batch); done += ID_CHUNK) {
    jint n = len - done < ID_CHUNK ? len - done : ID_CHUNK;
    jlong* p = (*env)->GetPrimitiveArrayCritical(env, ids, NULL);
    if (p == NULL) return JAVA_EXCEPTION_PENDING;
    jboolean* q = NULL;
    if (out != NULL) {
      q = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
      if (q == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, ids, p, JNI_ABORT);
        return JAVA_EXCEPTION_PENDING;
      }
    }
    const uint64_t* chunk = (const uint64_t*)(p + off + done);
    uint8_t* answers = q == NULL ? NULL : (uint8_t*)(q + out_off + done);
    if (op == OP_ADD) {
      s = seen_counting_add_u64(FILTER(h), chunk, (size_t)n);
    } else if (op == OP_REMOVE) {
      s = seen_counting_remove_u64(FILTER(h), chunk, (size_t)n, answers);
    } else {
      s = seen_counting_contains_u64(FILTER(h), chunk, (size_t)n, answers);
    }
    if (q != NULL) (*env)->ReleasePrimitiveArrayCritical(env, out, q, 0);
    (*env)->ReleasePrimitiveArrayCritical(env, ids, p, JNI_ABORT);
  }
  keep_going(s, &batch);
  return batch;
}

/* Byte keys first .. first+count of data + int offsets (validated by Java), through op as in
 * longs. Each chunk widens its offsets to the uint64 layout seen.h takes. */
JNI(jint, keys)(JNIEnv* env, jclass cls, jlong h, jint op, jbyteArray data, jintArray offsets,
                jint first, jint count, jbooleanArray out, jint out_off) {
  uint64_t wide[KEY_CHUNK + 1];
  jint narrow[KEY_CHUNK + 1];
  seen_status batch = SEEN_OK;
  seen_status s = SEEN_OK;
  for (jint done = 0; done < count && keep_going(s, &batch); done += KEY_CHUNK) {
    jint n = count - done < KEY_CHUNK ? count - done : KEY_CHUNK;
    (*env)->GetIntArrayRegion(env, offsets, first + done, n + 1, narrow);
    if ((*env)->ExceptionCheck(env)) return JAVA_EXCEPTION_PENDING;
    for (jint i = 0; i <= n; i++) wide[i] = (uint64_t)narrow[i];
    jbyte* d = (*env)->GetPrimitiveArrayCritical(env, data, NULL);
    if (d == NULL) return JAVA_EXCEPTION_PENDING;
    jboolean* q = NULL;
    if (out != NULL) {
      q = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
      if (q == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, data, d, JNI_ABORT);
        return JAVA_EXCEPTION_PENDING;
      }
    }
    uint8_t* answers = q == NULL ? NULL : (uint8_t*)(q + out_off + done);
    if (op == OP_ADD) {
      s = seen_counting_add_keys(FILTER(h), (const uint8_t*)d, wide, (size_t)n);
    } else if (op == OP_REMOVE) {
      s = seen_counting_remove_keys(FILTER(h), (const uint8_t*)d, wide, (size_t)n, answers);
    } else {
      s = seen_counting_contains_keys(FILTER(h), (const uint8_t*)d, wide, (size_t)n, answers);
    }
    if (q != NULL) (*env)->ReleasePrimitiveArrayCritical(env, out, q, 0);
    (*env)->ReleasePrimitiveArrayCritical(env, data, d, JNI_ABORT);
  }
  keep_going(s, &batch);
  return batch;
}

JNI(jint, clear)(JNIEnv* env, jclass cls, jlong h) {
  return seen_counting_clear(FILTER(h));
}

/* out: bytes, blocks, k, read_only, seed, expected_items, raw bits of target_fpr,
 * counter_bits. */
JNI(jint, params)(JNIEnv* env, jclass cls, jlong h, jlongArray out) {
  seen_counting_params p = {.size = sizeof p};
  seen_status s = seen_counting_get_params(FILTER(h), &p);
  if (s != SEEN_OK) return s;
  jlong v[8] = {(jlong)p.bytes, (jlong)p.blocks, p.k, p.read_only, (jlong)p.seed,
                (jlong)p.expected_items, double_bits(p.target_fpr), p.counter_bits};
  (*env)->SetLongArrayRegion(env, out, 0, 8, v);
  return SEEN_OK;
}

/* out: approx_items, saturated, fill_ratio, predicted_fpr. */
JNI(jint, stats)(JNIEnv* env, jclass cls, jlong h, jdoubleArray out) {
  seen_counting_stats st = {.size = sizeof st};
  seen_status s = seen_counting_get_stats(FILTER(h), &st);
  if (s != SEEN_OK) return s;
  jdouble v[4] = {st.approx_items, (jdouble)st.saturated, st.fill_ratio, st.predicted_fpr};
  (*env)->SetDoubleArrayRegion(env, out, 0, 4, v);
  return SEEN_OK;
}

JNI_SERIALIZED_FORM(seen_counting)

JNI_FILE(seen_counting)

JNI(jint, sync)(JNIEnv* env, jclass cls, jlong h) {
  return seen_counting_sync(FILTER(h));
}

/* Direct buffers: out is NULL for ADD and may be NULL for REMOVE. */
JNI(jint, longsDirect)(JNIEnv* env, jclass cls, jlong h, jint op, jobject ids, jlong pos,
                       jlong n, jobject out, jlong out_pos) {
  const uint64_t* p = (const uint64_t*)direct(env, ids, pos);
  uint8_t* answers = direct(env, out, out_pos);
  if (op == OP_ADD) return seen_counting_add_u64(FILTER(h), p, (size_t)n);
  if (op == OP_REMOVE) return seen_counting_remove_u64(FILTER(h), p, (size_t)n, answers);
  return seen_counting_contains_u64(FILTER(h), p, (size_t)n, answers);
}

JNI(jint, keysDirect)(JNIEnv* env, jclass cls, jlong h, jint op, jobject data, jlong data_pos,
                      jobject offsets, jlong offsets_pos, jlong n, jobject out, jlong out_pos) {
  const uint8_t* d = direct(env, data, data_pos);
  const uint64_t* o = (const uint64_t*)direct(env, offsets, offsets_pos);
  uint8_t* answers = direct(env, out, out_pos);
  if (op == OP_ADD) return seen_counting_add_keys(FILTER(h), d, o, (size_t)n);
  if (op == OP_REMOVE) return seen_counting_remove_keys(FILTER(h), d, o, (size_t)n, answers);
  return seen_counting_contains_keys(FILTER(h), d, o, (size_t)n, answers);
}
