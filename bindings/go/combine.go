package seen

import "runtime"

// Merge adds every key of other to f (f |= other). Both need the same size, k and seed,
// else ErrIncompatible naming what differs. Neither may be in use by another goroutine.
func (f *BloomFilter) Merge(other *BloomFilter) error {
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
func (f *BloomFilter) Clear() error {
	return withLive(f.live, func(h *handle) error {
		return cClear(h.c)
	})
}
