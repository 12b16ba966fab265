package seen

import "runtime"

// Merge adds every key of other to f (f |= other). Both need the same size, k and seed,
// else ErrIncompatible naming what differs. Neither may be in use by another goroutine.
func (f *Filter) Merge(other *Filter) error {
	dst, err := f.live()
	if err != nil {
		return err
	}
	src, err := other.live()
	if err != nil {
		return err
	}
	err = cMerge(dst.c, src.c)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return err
}

// Clear removes every key. It needs exclusive access.
func (f *Filter) Clear() error {
	h, err := f.live()
	if err != nil {
		return err
	}
	err = cClear(h.c)
	runtime.KeepAlive(h)
	return err
}
