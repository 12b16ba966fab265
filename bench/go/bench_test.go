package bench

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	bitsbloom "github.com/bits-and-blooms/bloom/v3"
	"github.com/cespare/xxhash/v2"
	"github.com/greatroar/blobloom"
	"github.com/seen-bloom/seen/bindings/go"
)

const (
	items   = 10_000_000
	fpr     = 0.01
	queries = 1 << 20 // half present, half absent; a power of two so batches tile it
)

var batchSizes = []int{1, 4, 16, 64, 256, 1024, 4096, 65536}

type filters struct {
	seen    *seen.BloomFilter
	bits    *bitsbloom.BloomFilter
	blob    *blobloom.Filter
	queries []uint64
}

var (
	setupOnce sync.Once
	all       filters
)

// splitmix64 spreads i over 64 bits: distinct inputs give distinct ids.
func splitmix64(i uint64) uint64 {
	z := i + 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// le is the key every filter hashes for an id: its 8 little-endian bytes, as in seen.
func le(buf *[8]byte, id uint64) []byte {
	binary.LittleEndian.PutUint64(buf[:], id)
	return buf[:]
}

// build fills the three filters with the same ids and prints their sizes and measured
// false-positive rates, so the comparison is between filters of like accuracy.
func build(b *testing.B) filters {
	setupOnce.Do(func() {
		ids := make([]uint64, items)
		for i := range ids {
			ids[i] = splitmix64(uint64(i))
		}
		f, err := seen.New(items, fpr)
		if err != nil {
			panic(err)
		}
		if err := f.AddUint64s(ids); err != nil {
			panic(err)
		}
		all.seen = f
		all.bits = bitsbloom.NewWithEstimates(items, fpr)
		all.blob = blobloom.NewOptimized(blobloom.Config{Capacity: items, FPRate: fpr})
		var buf [8]byte
		for _, id := range ids {
			all.bits.Add(le(&buf, id))
			all.blob.Add(xxhash.Sum64(le(&buf, id)))
		}
		all.queries = make([]uint64, queries)
		for i := range all.queries {
			if i%2 == 0 {
				all.queries[i] = ids[splitmix64(uint64(i))%items]
			} else {
				all.queries[i] = splitmix64(uint64(items + i))
			}
		}
		report(ids)
	})
	b.ResetTimer()
	return all
}

// report prints "# filter NAME bytes B fpr P" lines for bench/go/report.py.
func report(ids []uint64) {
	const probes = 1_000_000
	var buf [8]byte
	counts := map[string]int{}
	out := make([]bool, probes)
	absent := make([]uint64, probes)
	for i := range absent {
		absent[i] = splitmix64(uint64(2*items + i))
	}
	all.seen.TestUint64s(absent, out)
	for i, id := range absent {
		if out[i] {
			counts["seen"]++
		}
		if all.bits.Test(le(&buf, id)) {
			counts["bits-and-blooms"]++
		}
		if all.blob.Has(xxhash.Sum64(le(&buf, id))) {
			counts["blobloom"]++
		}
	}
	sizes := map[string]uint64{
		"seen":            all.seen.Params().Bytes,
		"bits-and-blooms": uint64(all.bits.Cap() / 8),
		"blobloom":        all.blob.NumBits() / 8,
	}
	for _, name := range []string{"seen", "bits-and-blooms", "blobloom"} {
		fmt.Printf("# filter %s bytes %d fpr %.5f\n", name, sizes[name], float64(counts[name])/probes)
	}
}

var sink int

func BenchmarkTest(b *testing.B) {
	for _, size := range batchSizes {
		b.Run(fmt.Sprintf("seen-batch=%d", size), func(b *testing.B) {
			f := build(b)
			out := make([]bool, size)
			hits, pos := 0, 0
			for i := 0; i < b.N; i += size {
				if err := f.seen.TestUint64s(f.queries[pos:pos+size], out); err != nil {
					b.Fatal(err)
				}
				if out[0] {
					hits++
				}
				pos = (pos + size) & (queries - 1)
			}
			sink += hits
		})
	}
	// One key per call, each filter's own way: the ids, or their 8 little-endian bytes.
	for _, single := range []struct {
		name string
		test func(f *filters, id uint64, buf *[8]byte) bool
	}{
		{"seen-single", func(f *filters, id uint64, _ *[8]byte) bool { return f.seen.TestUint64(id) }},
		{"seen-single-bytes", func(f *filters, id uint64, buf *[8]byte) bool { return f.seen.Test(le(buf, id)) }},
		{"bits-and-blooms", func(f *filters, id uint64, buf *[8]byte) bool { return f.bits.Test(le(buf, id)) }},
		{"blobloom", func(f *filters, id uint64, buf *[8]byte) bool { return f.blob.Has(xxhash.Sum64(le(buf, id))) }},
	} {
		b.Run(single.name, func(b *testing.B) {
			f := build(b)
			var buf [8]byte
			hits := 0
			for i := 0; i < b.N; i++ {
				if single.test(&f, f.queries[i&(queries-1)], &buf) {
					hits++
				}
			}
			sink += hits
		})
	}
}

// installedPaths are the file paths Debian's package lists name (/var/lib/dpkg/info/*.list):
// real string keys of 10 to 200 bytes, a few past the 128 that the Go probe hashes itself.
func installedPaths(b *testing.B) [][]byte {
	lists, _ := filepath.Glob("/var/lib/dpkg/info/*.list")
	unique := map[string]bool{}
	for _, list := range lists {
		data, err := os.ReadFile(list)
		if err != nil {
			b.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			unique[line] = line != ""
		}
	}
	var paths [][]byte
	for path, keep := range unique {
		if keep {
			paths = append(paths, []byte(path))
		}
	}
	if len(paths) < 1000 {
		b.Skip("fewer than 1,000 installed paths")
	}
	return paths
}

// BenchmarkPaths tests real paths, half of them added, in seen and bits-and-blooms sized
// alike: single byte-key tests on text nobody wrote for this benchmark.
func BenchmarkPaths(b *testing.B) {
	paths := installedPaths(b)
	f, err := seen.New(uint64(len(paths)/2), fpr)
	if err != nil {
		b.Fatal(err)
	}
	bb := bitsbloom.NewWithEstimates(uint(len(paths)/2), fpr)
	for _, p := range paths[:len(paths)/2] {
		f.Add(p)
		bb.Add(p)
	}
	b.ResetTimer()
	for _, peer := range []struct {
		name string
		test func([]byte) bool
	}{{"seen", f.Test}, {"bits-and-blooms", bb.Test}} {
		b.Run(peer.name, func(b *testing.B) {
			hits := 0
			for i := 0; i < b.N; i++ {
				if peer.test(paths[i%len(paths)]) {
					hits++
				}
			}
			sink += hits
		})
	}
}

// BenchmarkFloor is one random 64-byte line read from memory the size of seen's filter:
// the floor a one-cache-line-per-key filter cannot beat, measured in the same run.
func BenchmarkFloor(b *testing.B) {
	f := build(b)
	b.StopTimer()
	lines := make([]uint64, f.seen.Params().Bytes/8)
	mask := uint64(len(lines)/8 - 1)
	for mask&(mask+1) != 0 { // round down to a power of two of lines
		mask >>= 1
	}
	b.StartTimer()
	sum := uint64(0)
	for i := 0; i < b.N; i++ {
		sum += lines[(splitmix64(uint64(i))&mask)*8]
	}
	sink += int(sum)
}

// BenchmarkCgoCall is the bare cost of crossing into C and back (seen_version_number).
func BenchmarkCgoCall(b *testing.B) {
	v := uint32(0)
	for i := 0; i < b.N; i++ {
		v += seen.LibraryVersion()
	}
	sink += int(v)
}
