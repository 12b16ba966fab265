package seen

// Merge adds every key of other to f (f |= other). Both need the same size, k and seed,
// else ErrIncompatible naming what differs. Neither may be in use by another goroutine.
func (f *BloomFilter) Merge(other *BloomFilter) error {
	_, err := withBoth(f, other, func(dst, src *cFilter) (bool, error) { return false, cMerge(dst, src) })
	return err
}

// Intersect keeps the bits f and other both have (f &= other), with Merge's rules. Every key
// added to both still tests present; a key of one alone may too, more often than in a filter
// built from the common keys (the result is approximate upward).
func (f *BloomFilter) Intersect(other *BloomFilter) error {
	_, err := withBoth(f, other, func(dst, src *cFilter) (bool, error) { return false, cIntersect(dst, src) })
	return err
}

// Covers reports whether every bit of other is set in f, so every key other holds tests
// present in f. False is certain; true may be wrong, as a test may. Merge's shape rules.
func (f *BloomFilter) Covers(other *BloomFilter) (bool, error) {
	return withBoth(f, other, cCovers)
}

// withBoth makes a call on the C filters of f and other, both kept alive through it.
func withBoth(f, other *BloomFilter, call func(a, b *cFilter) (bool, error)) (bool, error) {
	return withLiveValue(f.live, func(a *handle) (bool, error) {
		return withLiveValue(other.live, func(b *handle) (bool, error) { return call(a.c, b.c) })
	})
}

// Clear removes every key. It needs exclusive access.
func (f *BloomFilter) Clear() error {
	return withC(f.live, cClear)
}
