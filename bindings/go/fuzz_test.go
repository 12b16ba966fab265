package seen

import (
	"bytes"
	"testing"
)

// FuzzUnmarshalBinary feeds arbitrary bytes to UnmarshalBinary: it must return an error or
// a filter that works and serializes back to exactly its input, never crash or hang.
func FuzzUnmarshalBinary(f *testing.F) {
	for _, n := range []uint64{1, 100, 5000} {
		g, err := NewWithSeed(n, 0.01, n)
		must(f, err)
		must(f, g.AddUint64s([]uint64{1, 2, 3}))
		b, err := g.MarshalBinary()
		must(f, err)
		g.Close()
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Filter
		if err := g.UnmarshalBinary(data); err != nil {
			return
		}
		defer g.Close()
		if _, err := g.TestAndAddString("probe"); err != nil {
			t.Fatalf("an accepted input gave a broken filter: %v", err)
		}
		g2 := Filter{}
		must(t, g2.UnmarshalBinary(data))
		defer g2.Close()
		back, err := g2.MarshalBinary()
		must(t, err)
		if !bytes.Equal(back, data) {
			t.Fatalf("accepted %d bytes but serializes them as %d different ones", len(data), len(back))
		}
	})
}
