package seen

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// blockProbe answers single-key tests of an unkeyed filter in Go, reading the filter's blocks
// where C keeps them, by contract 1 (XXH3-64 of the key's bytes with the seed; an id's are its
// 8 little-endian bytes) and block scheme 1 of docs/FORMAT.md.
//
// It is here for speed, not convenience. A cgo call costs 27 ns, but it also enters and
// leaves a system-call state with atomic instructions, and those keep the next key's memory
// read from starting before this one's has arrived: a loop of single-key cgo calls on a
// 12 MB filter paid the whole memory latency per key (about 200 ns, against 21 ns for the
// same calls made in a C loop; bench/results/go.md). A Go loop of probes overlaps them.
// probe_test.go holds every answer to the C probe's.
type blockProbe struct {
	words   []uint64 // the filter's blocks in C memory: 8 words each
	blocks  uint64
	k       uint32
	seed    uint64
	bitflip uint64 // XXH3's constant for 4-to-8-byte inputs under this seed
}

// Block scheme 1 (core/block.h): odd constants frozen by the format.
const startSalt uint32 = 0x0944fe0d

var wordSalt = [8]uint32{0xf9b439fd, 0x91d93081, 0x8142c8eb, 0x3ceaaf31,
	0xa05f1119, 0x627655db, 0xab13dfaf, 0x9dfb369b}

// newBlockProbe reads the blocks of a filter of the given shape and seed.
func newBlockProbe(blocks unsafe.Pointer, count uint64, k uint32, seed uint64) *blockProbe {
	// XXH3's default secret, bytes 8-15 and 16-23 read as little-endian words (xxhash.h).
	const secret8, secret16 = 0x1cad21f72c81017c, 0xdb979083e96dd4de
	return &blockProbe{
		words:   unsafe.Slice((*uint64)(blocks), count*8),
		blocks:  count,
		k:       k,
		seed:    seed,
		bitflip: (secret8 ^ secret16) - (seed ^ uint64(bits.ReverseBytes32(uint32(seed)))<<32),
	}
}

// testU64Or answers in Go when there is a probe (an unkeyed filter), else asks C.
func testU64Or[P cHandle](p *blockProbe, c P, id uint64, inC func(P, uint64) bool) bool {
	if p != nil {
		return p.testU64(id)
	}
	return inC(c, id)
}

// testKeyOr answers in Go when there is a probe and the key is short enough, else asks C.
func testKeyOr[P cHandle](p *blockProbe, c P, key unsafe.Pointer, n int,
	inC func(P, unsafe.Pointer, int) bool) bool {
	if p != nil && n <= xxh3ShortMax {
		return p.testBytes(unsafe.Slice((*byte)(key), n))
	}
	return inC(c, key, n)
}

// testU64 tests an id: xxh3Short of its 8 little-endian bytes, with the seed's constant
// computed once.
func (p *blockProbe) testU64(id uint64) bool {
	return p.testHash(xxh3Rrmxmx(bits.RotateLeft64(id, 32)^p.bitflip, 8))
}

// testBytes tests a byte key of at most xxh3ShortMax bytes.
func (p *blockProbe) testBytes(key []byte) bool { return p.testHash(xxh3Short(key, p.seed)) }

func (p *blockProbe) testHash(h uint64) bool {
	block, _ := bits.Mul64(h, p.blocks)
	words := p.words[block*8 : block*8+8 : block*8+8]
	h32 := uint32(h)
	word := (h32 * startSalt) >> 29
	all := uint64(1)
	for i := uint32(0); i < p.k; i++ {
		// Atomic loads read whole words while adds in C set bits beside us (on amd64 they
		// are plain loads). No early exit: a branch on each bit is a coin flip for absent
		// keys, and costs more than the few loads of one cache line it would save.
		all &= atomic.LoadUint64(&words[word]) >> ((h32 * wordSalt[word]) >> 26)
		word = (word + 1) & 7
	}
	return all&1 != 0
}
