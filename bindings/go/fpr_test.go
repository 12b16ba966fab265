package seen

import "testing"

// The measured false-positive rate of a filter filled to its expected items must not exceed
// the target (libseen sizes its blocked layout to really deliver it) by more than 20%. With
// 10^6 absent probes at p = 1% the standard deviation of the measured rate is
// sqrt(p(1-p)/10^6) ≈ 0.0001 = p/100, so 20% is 20 sigma (6 sigma at p = 0.1%): the test
// fails on a sizing or hashing bug, not on bad luck, and fixed seeds make it deterministic
// anyway. The floor of a quarter of p catches a filter that answers "absent" to everything.
func TestFalsePositiveRate(t *testing.T) {
	for _, target := range []float64{0.01, 0.001} {
		const items, probes = 100000, 1000000
		f := newFilter(t, items, target)
		ids := distinctIDs(42, items+probes)
		must(t, f.AddUint64s(ids[:items]))
		out := make([]bool, probes)
		must(t, f.TestUint64s(ids[items:], out))
		positives := 0
		for _, p := range out {
			if p {
				positives++
			}
		}
		rate := float64(positives) / probes
		if rate > 1.2*target || rate < 0.25*target {
			t.Errorf("target %g: measured %g over %d absent ids", target, rate, probes)
		}
	}
}
