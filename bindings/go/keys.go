package seen

import (
	"unsafe"
)

// The adds of a BloomFilter that say what was there: the other key methods are every
// filter's (filter_base.go).

// TestAndAdd adds key and reports whether it may have been present before.
func (f *BloomFilter) TestAndAdd(key []byte) (bool, error) {
	return f.putBytes(bytesPtr(key), len(key))
}

// TestAndAddString is TestAndAdd for a string key.
func (f *BloomFilter) TestAndAddString(key string) (bool, error) {
	return f.putBytes(stringPtr(key), len(key))
}

// TestAndAddUint64 is TestAndAdd for an integer id.
func (f *BloomFilter) TestAndAddUint64(id uint64) (bool, error) { return f.putUint64(id) }

func stringPtr(s string) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.StringData(s))
}
