package seen

import "fmt"

// Keys is a batch of byte keys in Arrow's layout, the one libseen takes: key i is
// Data[Offsets[i]:Offsets[i+1]], so n keys have n+1 offsets. The zero value is an empty
// batch; Append fills it, Reset empties it for reuse without freeing its memory.
type Keys struct {
	Data    []byte
	Offsets []uint64
}

// PackStrings is the batch of the strings' bytes, allocated once at its exact size.
func PackStrings(keys []string) Keys {
	total := 0
	for _, k := range keys {
		total += len(k)
	}
	b := Keys{Data: make([]byte, 0, total), Offsets: make([]uint64, 0, len(keys)+1)}
	for _, k := range keys {
		b.AppendString(k)
	}
	return b
}

// Append adds one key to the batch.
func (k *Keys) Append(key []byte) {
	k.start()
	k.Data = append(k.Data, key...)
	k.Offsets = append(k.Offsets, uint64(len(k.Data)))
}

// AppendString adds the bytes of one string to the batch.
func (k *Keys) AppendString(key string) {
	k.start()
	k.Data = append(k.Data, key...)
	k.Offsets = append(k.Offsets, uint64(len(k.Data)))
}

// start gives an empty batch its leading offset.
func (k *Keys) start() {
	if len(k.Offsets) == 0 {
		k.Offsets = append(k.Offsets, uint64(len(k.Data)))
	}
}

// Len is the number of keys.
func (k Keys) Len() int {
	if len(k.Offsets) == 0 {
		return 0
	}
	return len(k.Offsets) - 1
}

// Reset empties the batch, keeping its memory.
func (k *Keys) Reset() {
	k.Data = k.Data[:0]
	k.Offsets = k.Offsets[:0]
}

// validate checks the offsets against Data. libseen is given no length for Data, so it
// cannot see an offset past the end: this check is what keeps C inside the Go slice.
func (k Keys) validate() error {
	for i := 1; i < len(k.Offsets); i++ {
		if k.Offsets[i] < k.Offsets[i-1] {
			return invalid(fmt.Sprintf("Keys.Offsets[%d] = %d is below Offsets[%d] = %d",
				i, k.Offsets[i], i-1, k.Offsets[i-1]))
		}
	}
	if n := len(k.Offsets); n > 0 && k.Offsets[n-1] > uint64(len(k.Data)) {
		return invalid(fmt.Sprintf("Keys.Offsets[%d] = %d is past len(Data) = %d",
			n-1, k.Offsets[n-1], len(k.Data)))
	}
	return nil
}
