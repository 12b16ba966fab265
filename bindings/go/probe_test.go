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

// A counting filter's single-key tests are probed in Go over its presence blocks: they give
// C's batch answers, see removes at once, and a keyed filter (no probe) still answers in C.
func TestGoProbeAnswersAsCForCounting(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	key := make([]byte, 32)
	keyed, err := NewCountingKeyed(20000, 0.01, key)
	must(t, err)
	defer keyed.Close()
	plain, err := NewCountingWithSeed(20000, 0.01, 0xDEADBEEFCAFEF00D)
	must(t, err)
	defer plain.Close()
	if plain.Params().Keyed || !keyed.Params().Keyed {
		t.Fatalf("Keyed: plain %v, keyed %v", plain.Params().Keyed, keyed.Params().Keyed)
	}
	for _, f := range []*CountingFilter{plain, keyed} {
		ids := distinctIDs(int64(rng.Intn(1000)), 20000)
		must(t, f.AddUint64s(ids[:10000]))
		must(t, f.RemoveUint64s(ids[:5000], nil))
		var keys Keys
		for i, id := range ids[:4000] {
			k := make([]byte, i%161)
			rng.Read(k)
			keys.Append(append(k, byte(id)))
		}
		must(t, f.AddKeys(keys))
		want := make([]bool, len(ids))
		must(t, f.TestUint64s(ids, want))
		wantKeys := make([]bool, keys.Len())
		must(t, f.TestKeys(keys, wantKeys))
		for i, id := range ids {
			if f.TestUint64(id) != want[i] {
				t.Fatalf("keyed %v: id %d of %d: Go says %v, C %v", f.Params().Keyed, i, len(ids), !want[i], want[i])
			}
		}
		for i := 0; i < keys.Len(); i++ {
			k := keys.Data[keys.Offsets[i]:keys.Offsets[i+1]]
			if !wantKeys[i] || !f.Test(k) || !f.TestString(string(k)) {
				t.Fatalf("keyed %v: an added %d-byte key is missed (C %v)", f.Params().Keyed, len(k), wantKeys[i])
			}
		}
		if want[0] && want[1] && want[2] && want[3] {
			t.Fatalf("keyed %v: removed ids still answer present", f.Params().Keyed)
		}
	}
}
