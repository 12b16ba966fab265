/* What the JNI files share: chunk sizes, the marker for a pending Java exception, handles
 * through out-parameters, and the window options and info that the window and the store both
 * carry. Header-only (static functions), so each concept stays one .c file. */
#ifndef SEEN_JNI_COMMON_H
#define SEEN_JNI_COMMON_H

#include <jni.h>
#include <stdint.h>
#include <string.h>

#include "seen.h"

/* Ids per critical section (or per copied chunk): about a tenth of a millisecond of probing. */
enum { ID_CHUNK = 1 << 14 };
/* Byte keys per critical section; their offsets are widened to 64 bits on the stack. */
enum { KEY_CHUNK = 512 };
/* Returned when a JNI call raised a Java exception; that exception wins over the value. */
enum { JAVA_EXCEPTION_PENDING = -1 };

/* Returns a handle through out[0] when s is SEEN_OK. */
static inline jint handle_out(JNIEnv* env, jlongArray out, seen_status s, void* handle) {
  if (s == SEEN_OK) {
    jlong h = (jlong)(intptr_t)handle;
    (*env)->SetLongArrayRegion(env, out, 0, 1, &h);
  }
  return s;
}

static inline jlong double_bits(double d) {
  jlong bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
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

#endif /* SEEN_JNI_COMMON_H */
