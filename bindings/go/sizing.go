package seen

// Sizing without a filter (seen_bloom_size_for, seen_bloom_predict_fpr): what New would
// choose for a rate, or the rate a budget of bytes reaches. bits-and-blooms' EstimateParameters
// answers the textbook formula; a blocked filter needs a little more, so plan with these.

/*
#include <seen/seen.h>
*/
import "C"

// SizeFor is the bytes and bits per key (k) a filter needs to really deliver fpr after n
// distinct keys: those New(n, fpr) chooses. An fpr outside (0, 1) is ErrInvalidArgument, one
// out of reach ErrTooLarge.
func SizeFor(n uint64, fpr float64) (bytes uint64, k uint32, err error) {
	var b C.uint64_t
	var cK C.uint32_t
	err = made(func(e *C.seen_error) C.seen_status {
		return C.seen_bloom_size_for(C.uint64_t(n), C.double(fpr), &b, &cK, e)
	})
	return uint64(b), uint32(cK), err
}

// PredictFPR is the false-positive rate n keys give in a filter of bytes bytes (rounded up
// to 64-byte blocks), with the k that suits them best, as NewWithBytes would choose it.
func PredictFPR(n, bytes uint64) (fpr float64, k uint32, err error) {
	var f C.double
	var cK C.uint32_t
	err = made(func(e *C.seen_error) C.seen_status {
		return C.seen_bloom_predict_fpr(C.uint64_t(n), C.uint64_t(bytes), &f, &cK, e)
	})
	return float64(f), uint32(cK), err
}
