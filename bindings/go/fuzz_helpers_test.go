package seen

import (
	"bytes"
	"testing"
)

// addSeed seeds the corpus with v's serialized form, whole and cut in half (a truncated
// file), then closes v.
func addSeed(f *testing.F, v serialForm) {
	b, err := v.MarshalBinary()
	must(f, err)
	v.Close()
	f.Add(b)
	f.Add(b[:len(b)/2])
}

// fuzzRoundTrip fuzzes UnmarshalBinary of a zero T (an empty input seeded too): an accepted
// input must serialize back to exactly itself, and then pass use, the kind's own checks.
func fuzzRoundTrip[T any, P interface {
	*T
	serialForm
}](f *testing.F, use func(t *testing.T, v P)) {
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		v := P(new(T))
		if err := v.UnmarshalBinary(data); err != nil {
			return
		}
		defer v.Close()
		back, err := v.MarshalBinary()
		must(t, err)
		if !bytes.Equal(back, data) {
			t.Fatalf("accepted %d bytes but serializes them as %d different ones", len(data), len(back))
		}
		use(t, v)
	})
}
