module github.com/seen-bloom/seen/bench/go

go 1.20

require (
	github.com/bits-and-blooms/bloom/v3 v3.7.1
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/greatroar/blobloom v0.8.1
	github.com/seen-bloom/seen/bindings/go v0.0.0
)

require github.com/bits-and-blooms/bitset v1.24.2 // indirect

replace github.com/seen-bloom/seen/bindings/go => ../../bindings/go
