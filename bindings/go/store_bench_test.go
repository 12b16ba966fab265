package seen

import "testing"

// The request: filter 10,000 candidates for one user of a populated store, then mark
// the 100 shown. go test -bench=Store -run=^$ (not run by meson).
func BenchmarkStoreFilterMark10k(b *testing.B) {
	s := newStore(b, StoreOptions{Window: LastItems(500, 0.01), ExpectedUsers: 1 << 14})
	for user := uint64(0); user < 1<<14; user++ {
		must(b, s.Mark(user, distinctIDs(int64(user), 8), 1000))
	}
	candidates := distinctIDs(-1, 10000)
	unseen := make([]bool, len(candidates))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		user := uint64(i) & (1<<14 - 1)
		must(b, s.Filter(user, candidates, 1000, unseen))
		must(b, s.Mark(user, candidates[i%9900:i%9900+100], 1000))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(candidates)), "ns/candidate")
}

// One cgo call per page of 20 out of 1,000 candidates.
func BenchmarkStoreTake(b *testing.B) {
	s := newStore(b, StoreOptions{Window: LastItems(500, 0.01), ExpectedUsers: 1 << 14})
	candidates := distinctIDs(-2, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Take(uint64(i)&(1<<14-1), candidates, 20, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWindowTestUint64s(b *testing.B) {
	for _, fpr := range []float64{0.01, 0.001} {
		w := newCountWindow(b, 500, fpr)
		must(b, w.AddUint64s(distinctIDs(3, 500), 0))
		ids := distinctIDs(4, 1000)
		out := make([]bool, len(ids))
		b.Run(w.Info().Layout.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				must(b, w.TestUint64s(ids, 0, out))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ids)), "ns/candidate")
		})
	}
}
