package seen

import (
	"math/rand"
	"path/filepath"
	"testing"
)

// TestUint64's Go probe must give the C probe's answer for every id: the same hash, block
// and bits, under every seed, k and block count. The batch call is C's answer.
func TestGoProbeAnswersAsC(t *testing.T) {
	rng := rand.New(rand.NewSource(15))
	for _, c := range []struct {
		n    uint64
		fpr  float64
		seed uint64
	}{
		{1, 0.5, 0},                         // one block, k = 1
		{1000, 0.01, 0},                     // the default seed
		{5000, 0.3, 7},                      // small k
		{20000, 0.0001, 0xDEADBEEFCAFEF00D}, // k = 8 at the block's limit, both seed halves
		{300000, 0.02, 1 << 40},             // a block count that is no power of two
	} {
		f, err := NewWithSeed(c.n, c.fpr, c.seed)
		must(t, err)
		added := make([]uint64, c.n/2+1)
		for i := range added {
			added[i] = rng.Uint64()
		}
		must(t, f.AddUint64s(added))
		probes := append(added, distinctIDs(int64(c.n), 50000)...)
		want := make([]bool, len(probes))
		must(t, f.TestUint64s(probes, want))
		mismatches, positives := 0, 0
		for i, id := range probes {
			if f.TestUint64(id) != want[i] {
				mismatches++
			}
			if want[i] {
				positives++
			}
		}
		if mismatches != 0 {
			t.Errorf("n %d seed %#x k %d: %d of %d answers differ from C", c.n, c.seed, f.K(), mismatches, len(probes))
		}
		// All-true answers would hide a probe that ignores the blocks.
		if positives == len(probes) {
			t.Errorf("n %d: %d positives of %d probes, %d added", c.n, positives, len(probes), len(added))
		}
		f.Close()
	}
}

// The probe reads the filter where C keeps it: a mapped file, and words that Merge changed
// after the probe was made.
func TestGoProbeReadsTheLiveBlocks(t *testing.T) {
	ids := distinctIDs(3, 2000)
	path := filepath.Join(t.TempDir(), "f.seen")
	built := newFilter(t, 10000, 0.01)
	must(t, built.AddUint64s(ids[:1000]))
	must(t, built.Save(path))
	mapped, err := Open(path, true)
	must(t, err)
	defer mapped.Close()
	for _, id := range ids[:1000] {
		if !mapped.TestUint64(id) {
			t.Fatalf("the mapped filter misses %#x", id)
		}
	}
	other := newFilter(t, 10000, 0.01)
	must(t, other.AddUint64s(ids[1000:]))
	must(t, built.Merge(other))
	for _, id := range ids {
		if !built.TestUint64(id) {
			t.Fatalf("after Merge the filter misses %#x", id)
		}
	}
}

// Test and TestString give C's answer for byte keys of every length: XXH3's paths for up to
// 128 bytes in Go, and past them the C call. Every added key of every length must be found,
// so a key hashed wrong in Go (landing in another block) shows.
func TestGoProbeHashesEveryKeyLengthAsC(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	for _, seed := range []uint64{0, 7, 0xDEADBEEFCAFEF00D} {
		f, err := NewWithSeed(20000, 0.01, seed)
		must(t, err)
		var added, absent Keys
		for n := 0; n <= 160; n++ {
			for i := 0; i < 40; i++ {
				key := make([]byte, n)
				rng.Read(key)
				if i%2 == 0 {
					added.Append(key)
				} else {
					absent.Append(key)
				}
			}
		}
		must(t, f.AddKeys(added))
		for _, batch := range []Keys{added, absent} {
			want := make([]bool, batch.Len())
			must(t, f.TestKeys(batch, want))
			for i := 0; i < batch.Len(); i++ {
				key := batch.Data[batch.Offsets[i]:batch.Offsets[i+1]]
				if f.Test(key) != want[i] || f.TestString(string(key)) != want[i] {
					t.Fatalf("seed %#x, a %d-byte key: Go says %v, C %v", seed, len(key), f.Test(key), want[i])
				}
			}
		}
		f.Close()
	}
}
