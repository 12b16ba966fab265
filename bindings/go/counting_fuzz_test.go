package seen

import (
	"errors"
	"testing"
)

// FuzzCountingUnmarshal is FuzzUnmarshalBinary for counting filters: an accepted input must
// serialize back to exactly itself and then add, find and remove keys.
func FuzzCountingUnmarshal(f *testing.F) {
	for _, n := range []uint64{1, 100, 2000} {
		g := newCounting(f, n, 0.01)
		must(f, g.AddUint64s([]uint64{1, 2, 3, 3}))
		addSeed(f, g)
	}
	fuzzRoundTrip(f, func(t *testing.T, g *CountingFilter) {
		must(t, g.AddString("probe"))
		if !g.TestString("probe") {
			t.Fatal("an accepted input gave a broken filter")
		}
		if err := g.RemoveString("probe"); err != nil {
			t.Fatalf("removing an added key: %v", err)
		}
		if err := g.RemoveUint64s([]uint64{1, 2, 3}, nil); err != nil && !errors.Is(err, ErrNotFound) {
			t.Fatalf("batch remove: %v", err)
		}
	})
}

// FuzzScalableUnmarshal is the same for scalable filters, seeded with one and several
// sub-filters; an accepted input must also keep growing.
func FuzzScalableUnmarshal(f *testing.F) {
	for _, keys := range []int{3, 300} {
		g := newScalable(f, ScalableOptions{InitialCapacity: 50, FPR: 0.01, Seed: uint64(keys)})
		must(f, g.AddUint64s(distinctIDs(int64(keys), keys)))
		addSeed(f, g)
	}
	fuzzRoundTrip(f, func(t *testing.T, g *ScalableFilter) {
		ids := distinctIDs(1, 200)
		err := g.AddUint64s(ids)
		if errors.Is(err, ErrTooLarge) { // already at 64 sub-filters
			return
		}
		must(t, err)
		if !g.TestUint64(ids[199]) {
			t.Fatal("an accepted input lost a key")
		}
	})
}
