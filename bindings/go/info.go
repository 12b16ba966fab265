package seen

import (
	"math"
)

// BloomParams are a filter's fixed parameters, read once when it is made. The fields are
// those of seen_bloom_info, in its order.
type BloomParams struct {
	Bytes         uint64  // payload size: Blocks * 64
	Blocks        uint64  // 64-byte blocks; every key lives in one
	K             uint32  // bits set per key
	ReadOnly      bool    // opened read-only
	Seed          uint64  // the hash seed; 0 when Keyed
	ExpectedItems uint64  // as given at creation
	TargetFPR     float64 // as given at creation (predicted, for NewWithBytes)
	Keyed         bool    // keys hash under a secret key (NewKeyed, OpenKeyed, UnmarshalKeyed)
}

// BloomStats describe how full a filter is now.
type BloomStats struct {
	FillRatio    float64 // set bits / all bits
	ApproxItems  float64 // distinct items estimated from the fill
	PredictedFPR float64 // the false-positive rate as the filter is now
}

// Params of the filter; the zero Params once closed.
func (f *BloomFilter) Params() BloomParams { return factsOf(f.live).BloomParams }

// Cap is the size of the filter in bits, 0 once closed.
func (f *BloomFilter) Cap() uint64 { return f.Params().Bytes * 8 }

// K is the number of bits each key sets, 0 once closed.
func (f *BloomFilter) K() uint { return uint(f.Params().K) }

// Stats reads the whole filter to measure its fill: O(size), not for hot paths.
func (f *BloomFilter) Stats() (BloomStats, error) {
	return withCValue(f.live, cStats)
}

// ApproximatedSize estimates how many distinct keys were added, from the fill (O(size)).
// A saturated filter's estimate is infinite: then it is math.MaxInt64, as in Java and Python.
func (f *BloomFilter) ApproximatedSize() (uint64, error) {
	s, err := f.Stats()
	return roundedCount(s.ApproxItems), err
}

// roundedCount is an estimated count as every binding rounds it (tests/vectors/conformance.json):
// half up, at most math.MaxInt64 (Java's Long.MAX_VALUE). A bare uint64(math.Round(x)) is
// implementation-defined past 2^64 and for +Inf.
func roundedCount(estimate float64) uint64 {
	if !(estimate < math.MaxInt64) {
		return math.MaxInt64
	}
	return uint64(math.Round(estimate))
}

// ExpectedFPR is the false-positive rate the filter has now, predicted from its fill
// (O(size)).
func (f *BloomFilter) ExpectedFPR() (float64, error) {
	s, err := f.Stats()
	return s.PredictedFPR, err
}
