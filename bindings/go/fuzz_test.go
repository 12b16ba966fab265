package seen

import "testing"

// FuzzUnmarshalBinary feeds arbitrary bytes to UnmarshalBinary: it must return an error or
// a filter that works and serializes back to exactly its input, never crash or hang.
func FuzzUnmarshalBinary(f *testing.F) {
	for _, n := range []uint64{1, 100, 5000} {
		g := newFilter(f, n, 0.01)
		must(f, g.AddUint64s([]uint64{1, 2, 3}))
		addSeed(f, g)
	}
	fuzzRoundTrip(f, func(t *testing.T, g *BloomFilter) {
		if _, err := g.TestAndAddString("probe"); err != nil {
			t.Fatalf("an accepted input gave a broken filter: %v", err)
		}
	})
}

// FuzzWindowUnmarshal is FuzzUnmarshalBinary for windows, seeded with both layouts and both
// modes.
func FuzzWindowUnmarshal(f *testing.F) {
	for _, o := range []WindowOptions{LastItems(50, 0.01), LastItems(50, 0.0001), LastSeconds(60, 20, 0.01)} {
		w, err := NewWindow(o, 10)
		must(f, err)
		must(f, w.AddUint64s([]uint64{1, 2, 3}, 20))
		addSeed(f, w)
	}
	fuzzRoundTrip(f, func(t *testing.T, w *Window) {
		must(t, w.AddString("probe", 1000))
		if !w.TestString("probe", 1000) {
			t.Fatal("an accepted input gave a broken window")
		}
	})
}

// FuzzSimHashIndexUnmarshal is FuzzUnmarshalBinary for SimHash indexes: an accepted input
// must answer queries and serialize back to exactly its input.
func FuzzSimHashIndexUnmarshal(f *testing.F) {
	for _, k := range []int{0, 3, 7} {
		x, err := NewSimHashIndex(k)
		must(f, err)
		must(f, x.AddMany([]uint64{1, 2, 3}, []uint64{0xff, 0xfe, 1 << 60}))
		addSeed(f, x)
	}
	fuzzRoundTrip(f, func(t *testing.T, x *SimHashIndex) {
		for _, q := range []uint64{0, 0xff, ^uint64(0)} {
			if _, err := x.Query(q); err != nil {
				t.Fatalf("an accepted input gave a broken index: %v", err)
			}
		}
		if _, err := x.Clusters(); err != nil {
			t.Fatalf("clusters of an accepted input: %v", err)
		}
		must(t, x.Add(9, 9))
		if got, err := x.Query(9); err != nil || len(got) == 0 {
			t.Fatalf("a pair added to an accepted input is not found: %v, %v", got, err)
		}
	})
}
