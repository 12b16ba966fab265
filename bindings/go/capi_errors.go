package seen

// How a failed C call's message reaches Go (docs/errors.md): a call on a handle leaves it on
// the handle, a call without one in the seen_error it is lent. Neither is thread-local, so it
// does not matter which OS thread the goroutine runs on when it reads the message.

/*
#include <seen/seen.h>
*/
import "C"

// cHandle is any kind's C handle.
type cHandle interface {
	*cFilter | *cWindow | *cStore | *cIndex | *cCounting | *cScalable | *cMinhash
}

// checkOn is nil for SEEN_OK, else the *Error of a call on h, with the message h keeps.
func checkOn[H cHandle](h H, status C.seen_status) error {
	if status == C.SEEN_OK {
		return nil
	}
	var e C.seen_error
	switch c := any(h).(type) {
	case *cFilter:
		C.seen_bloom_last_error(c, &e)
	case *cWindow:
		C.seen_window_last_error(c, &e)
	case *cStore:
		C.seen_store_last_error(c, &e)
	case *cIndex:
		C.seen_simhash_index_last_error(c, &e)
	case *cCounting:
		C.seen_counting_last_error(c, &e)
	case *cScalable:
		C.seen_scalable_last_error(c, &e)
	case *cMinhash:
		C.seen_minhash_index_last_error(c, &e)
	}
	return errorOf(status, &e)
}

// made runs a C call that has no handle, lending it a seen_error (Go memory without
// pointers, for the one call) to report a failure in.
func made(call func(e *C.seen_error) C.seen_status) error {
	var e C.seen_error
	return errorOf(call(&e), &e)
}

func errorOf(status C.seen_status, e *C.seen_error) error {
	if status == C.SEEN_OK {
		return nil
	}
	return &Error{Status: Status(status), Message: C.GoString(&e.message[0])}
}
