// Package bench compares the Go binding of seen with the popular pure-Go Bloom filters on
// lookups of 64-bit ids: 10^7 keys at 1% false positives, every filter in one process and
// one run. Each benchmark op is one key, so ns/op is ns per key. Run it with ./run.
//
// It is a module of its own so that the binding's tests never need the peers' modules.
package bench
