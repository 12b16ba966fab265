package seen

import "runtime"

// withLive runs call on the open handle that live returns (its error, ErrClosed, is passed on
// without calling). The handle is kept alive until call returns: its finalizer frees the C
// object, which must not happen while C is still using it.
func withLive[H any](live func() (*H, error), call func(h *H) error) error {
	h, err := live()
	if err != nil {
		return err
	}
	err = call(h)
	runtime.KeepAlive(h)
	return err
}

// withLiveValue is withLive for a call with a result, the zero value when live fails.
func withLiveValue[H, T any](live func() (*H, error), call func(h *H) (T, error)) (T, error) {
	h, err := live()
	if err != nil {
		var zero T
		return zero, err
	}
	v, err := call(h)
	runtime.KeepAlive(h)
	return v, err
}

// withC is withLive for a C call that takes the open handle's C object alone.
func withC[P cHandle, M any](live func() (*owned[P, M], error), call func(c P) error) error {
	return withLive(live, func(h *owned[P, M]) error { return call(h.c) })
}

// withCValue is withC for a call with a result.
func withCValue[P cHandle, M, T any](live func() (*owned[P, M], error), call func(c P) (T, error)) (T, error) {
	return withLiveValue(live, func(h *owned[P, M]) (T, error) { return call(h.c) })
}

// replaceBy makes dst the freshly adopted src (UnmarshalBinary), closing dst's old handle;
// if adopting failed (err), dst is left as it was. Each kind is a struct of its handle
// alone, so copying the struct hands over the handle.
func replaceBy[T any, P interface {
	*T
	Close() error
}](dst, src P, err error) error {
	if err != nil {
		return err
	}
	err = dst.Close()
	*dst = *src
	return err
}

// testOn is a single-key test on the open handle that live returns. A test cannot fail on an
// open filter, so it returns a bare bool, as in bits-and-blooms; testing a closed filter is a
// programming error, like reading a closed file, and panics with live's ErrClosed.
func testOn[H any](live func() (*H, error), test func(h *H) bool) bool {
	h, err := live()
	if err != nil {
		panic(err)
	}
	found := test(h)
	runtime.KeepAlive(h)
	return found
}
