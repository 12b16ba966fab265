package seen

import (
	"encoding/binary"
	"math/bits"
)

// XXH3-64 with a seed for keys of up to 128 bytes: xxhash.h's paths for 0, 1-3, 4-8, 9-16 and
// 17-128 bytes over its default secret, as the core hashes every key (contract 1). The Go
// probe (probe.go) answers byte keys with it; longer keys go to C. probe_test.go holds every
// length to the C library's hash.

// xxh3Secret is the start of XXH3's default secret (XXH3_kSecret in xxhash.h): the 128
// bytes the short paths read, and 8 more for the empty key.
var xxh3Secret = [136]byte{
	0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
	0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
	0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
	0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
	0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
	0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
	0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
	0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
	0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3,
}

const (
	xxhPrime64_1 = 0x9E3779B185EBCA87
	xxhPrime64_2 = 0xC2B2AE3D27D4EB4F
	xxhPrime64_3 = 0x165667B19E3779F9
	// The longest key the Go paths hash; a longer one takes XXH3's mid-size and long paths.
	xxh3ShortMax = 128
)

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }
func le32(b []byte) uint64 { return uint64(binary.LittleEndian.Uint32(b)) }

// xxh3Short is XXH3_64bits_withSeed(key, seed) for len(key) <= xxh3ShortMax.
func xxh3Short(key []byte, seed uint64) uint64 {
	s, n := xxh3Secret[:], uint64(len(key))
	switch {
	case n == 0:
		return xxh64Avalanche(seed ^ le64(s[56:]) ^ le64(s[64:]))
	case n <= 3:
		combined := uint64(key[0])<<16 | uint64(key[n>>1])<<24 | uint64(key[n-1]) | n<<8
		return xxh64Avalanche(combined ^ ((le32(s) ^ le32(s[4:])) + seed))
	case n <= 8:
		seed ^= uint64(bits.ReverseBytes32(uint32(seed))) << 32
		keyed := (le32(key[n-4:]) + le32(key)<<32) ^ ((le64(s[8:]) ^ le64(s[16:])) - seed)
		return xxh3Rrmxmx(keyed, n)
	case n <= 16:
		lo := le64(key) ^ ((le64(s[24:]) ^ le64(s[32:])) + seed)
		hi := le64(key[n-8:]) ^ ((le64(s[40:]) ^ le64(s[48:])) - seed)
		return xxh3Avalanche(n + bits.ReverseBytes64(lo) + hi + mulFold(lo, hi))
	}
	acc := n * xxhPrime64_1
	// Pairs of 16-byte lanes from both ends, as many as the length reaches (17-128 bytes).
	for pair := (n - 1) / 32; ; pair-- {
		acc += mix16(key[16*pair:], s[32*pair:], seed) + mix16(key[n-16*(pair+1):], s[32*pair+16:], seed)
		if pair == 0 {
			return xxh3Avalanche(acc)
		}
	}
}

func mix16(in, secret []byte, seed uint64) uint64 {
	return mulFold(le64(in)^(le64(secret)+seed), le64(in[8:])^(le64(secret[8:])-seed))
}

func mulFold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

func xxh64Avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= xxhPrime64_2
	h ^= h >> 29
	h *= xxhPrime64_3
	return h ^ h>>32
}

func xxh3Avalanche(h uint64) uint64 {
	h ^= h >> 37
	h *= 0x165667919E3779F9
	return h ^ h>>32
}

func xxh3Rrmxmx(h, n uint64) uint64 {
	h ^= bits.RotateLeft64(h, 49) ^ bits.RotateLeft64(h, 24)
	h *= 0x9FB21C651E98DF25
	h ^= (h >> 35) + n
	h *= 0x9FB21C651E98DF25
	return h ^ h>>28
}
