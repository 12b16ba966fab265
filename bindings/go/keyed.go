package seen

import "bytes"

// Keyed mode (docs/SECURITY.md). Below the public API a nil key means "no key": the plain
// calls pass nil, and the keyed ones pass secret(key), so that a missing key reaches C as
// an empty one, which C refuses as too short, never as a plain open.

// secret is the key of a keyed call: nil becomes empty.
func secret(key []byte) []byte {
	if key == nil {
		return []byte{}
	}
	return key
}

// keyKeeper is a kind that keeps its key in Go memory for Copy: its bytes do not hold it.
type keyKeeper interface{ keep(key []byte) }

// keepKey wraps adopt so that what it adopts keeps its own copy of key (nil for none), which
// a caller reusing the key's slice cannot change.
func keepKey[P cHandle, F keyKeeper](key []byte, adopt func(P, error) (F, error)) func(P, error) (F, error) {
	return func(c P, err error) (F, error) {
		f, err := adopt(c, err)
		if err == nil {
			f.keep(bytes.Clone(key))
		}
		return f, err
	}
}
