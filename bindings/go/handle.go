package seen

import "runtime"

// owned is one C object and the facts about it read once, when it was made (a filter's
// parameters, a window's shape). The finalizer sits on owned rather than on the public type,
// so that a BloomFilter, Window or ExposureStore may be embedded or copied into any struct; a copy shares
// the owned, so closing either closes both. runtime.KeepAlive(h) after each C call (withLive)
// keeps the finalizer from running while C still uses the pointer.
type owned[P cHandle, M any] struct {
	c       P // nil once freed
	meta    M
	release func(P)
}

// adoptAs wraps c, fresh from a C constructor, as wrap makes it, or passes that
// constructor's err on. read learns c's facts; if it fails, c is freed.
func adoptAs[T any, P cHandle, M any](wrap func(*owned[P, M]) *T, c P, err error, read func(P) (M, error),
	release func(P)) (*T, error) {
	if err != nil {
		return nil, err
	}
	meta, err := read(c)
	if err != nil {
		release(c)
		return nil, err
	}
	h := &owned[P, M]{c: c, meta: meta, release: release}
	runtime.SetFinalizer(h, (*owned[P, M]).free)
	return wrap(h), nil
}

func (h *owned[P, M]) free() {
	h.release(h.c)
	var freed P
	h.c = freed
}

// open is h while it is open, else ErrClosed (a zero value, or a copy of a closed one).
func (h *owned[P, M]) open() (*owned[P, M], error) {
	var freed P
	if h == nil || h.c == freed {
		return nil, ErrClosed
	}
	return h, nil
}

// factsOf are the facts of the open handle that live returns, read without C; the zero M once
// it is closed (the getters that cannot fail: Params, Info, K, Len).
func factsOf[P cHandle, M any](live func() (*owned[P, M], error)) M {
	h, err := live()
	if err != nil {
		var zero M
		return zero
	}
	return h.meta
}

// closeOwned frees *hp at most once, after flush (nil for none) of its C object, whose error
// it returns, and leaves *hp nil. A closed or zero *hp is a no-op.
func closeOwned[P cHandle, M any](hp **owned[P, M], flush func(c P) error) error {
	h, err := (*hp).open()
	if err != nil {
		return nil // closing twice is a no-op
	}
	*hp = nil
	runtime.SetFinalizer(h, nil)
	if flush != nil {
		err = flush(h.c)
	}
	h.free()
	return err
}

// noFacts is the read of a kind that caches nothing about its C object.
func noFacts[P cHandle](P) (struct{}, error) { return struct{}{}, nil }
