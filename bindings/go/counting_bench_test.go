package seen

import (
	"fmt"
	"testing"
)

// Benchmarks of the counting and scalable batches through the binding (meson does not run
// them: go test -bench 'Counting|Scalable' -run '^$'). Each op is one key.

const benchBatch = 4096

func BenchmarkCountingBatches(b *testing.B) {
	const n = 1 << 20
	f, err := NewCounting(n, 0.01)
	must(b, err)
	defer f.Close()
	ids := distinctIDs(1, n)
	must(b, f.AddUint64s(ids))
	out := make([]bool, benchBatch)
	for _, op := range []string{"TestUint64s", "AddRemove"} {
		b.Run(op, func(b *testing.B) {
			for i := 0; i < b.N; i += benchBatch {
				lo := i % (n - benchBatch)
				batch := ids[lo : lo+benchBatch]
				if op == "TestUint64s" {
					must(b, f.TestUint64s(batch, out))
				} else { // an add then a remove of the same keys: the counters end where they began
					must(b, f.AddUint64s(batch))
					must(b, f.RemoveUint64s(batch, nil))
				}
			}
		})
	}
}

// BenchmarkScalableTest is query time against the number of sub-filters.
func BenchmarkScalableTest(b *testing.B) {
	for _, growth := range []int{1, 10, 100} {
		f, err := NewScalable(ScalableOptions{InitialCapacity: 10000, FPR: 0.01})
		must(b, err)
		ids := distinctIDs(2, 10000*growth)
		must(b, f.AddUint64s(ids))
		out := make([]bool, benchBatch)
		b.Run(fmt.Sprintf("subfilters=%d", f.SubFilters()), func(b *testing.B) {
			for i := 0; i < b.N; i += benchBatch {
				lo := i % (len(ids) - benchBatch)
				must(b, f.TestUint64s(ids[lo:lo+benchBatch], out))
			}
		})
		f.Close()
	}
}

// BenchmarkCountingTestUint64 is one single-key test per op, on a filter past the L2 (8 Mi
// keys: 10 MB of presence blocks), half of the ids present.
func BenchmarkCountingTestUint64(b *testing.B) {
	const n = 1 << 23
	f, err := NewCounting(n, 0.01)
	must(b, err)
	defer f.Close()
	ids := distinctIDs(3, 2*n)
	must(b, f.AddUint64s(ids[:n]))
	b.ResetTimer()
	found := 0
	for i := 0; i < b.N; i++ {
		if f.TestUint64(ids[i%(2*n)]) {
			found++
		}
	}
	if b.N > 2*n && found < b.N/2 {
		b.Fatalf("%d of %d found", found, b.N)
	}
}
