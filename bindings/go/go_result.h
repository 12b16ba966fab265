// The result every fallible cgo wrapper returns (capi.go, capi_counting.go): the status with
// a malloc'd copy of seen_last_error() taken in the same C call, since seen_last_error() is
// thread-local and a goroutine may change OS threads between two cgo calls. check() in
// capi.go turns it into a Go error and frees the copy.
#ifndef SEEN_GO_RESULT_H
#define SEEN_GO_RESULT_H

#include <stdlib.h>
#include <string.h>
#include <seen/seen.h>

typedef struct {
	seen_status status;
	uint8_t present;  // was_present of the put calls
	char* message;    // malloc'd; NULL on success; the Go side frees it
} go_result;

static inline go_result go_result_of(seen_status s) {
	go_result r = {s, 0, NULL};
	if (s != SEEN_OK) r.message = strdup(seen_last_error());
	return r;
}

#endif
