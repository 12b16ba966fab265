package seen

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"
	"time"
)

// RedisDo runs one command on the caller's own Redis client and returns its reply, so that
// no Redis driver is a dependency of seen. With go-redis (a *redis.Client or a
// *redis.ClusterClient):
//
//	do := func(ctx context.Context, args ...any) (any, error) { return rdb.Do(ctx, args...).Result() }
//	shown := seen.RedisWindows{Do: do}
type RedisDo func(ctx context.Context, args ...any) (any, error)

// RedisWindows drives the exposure windows that seen's Redis module keeps, one key per
// user (name keys "exp:{user}" so Redis Cluster keeps a user on one slot). Ids travel
// packed: n x 8 little-endian bytes to SEEN.MARKB, SEEN.FILTERB and SEEN.TAKEB, and a
// bitmap back from SEEN.FILTERB.
type RedisWindows struct {
	Do RedisDo
}

// PackIDs is the packed form of ids: 8 little-endian bytes each.
func PackIDs(ids []uint64) []byte {
	out := make([]byte, 8*len(ids))
	for i, id := range ids {
		binary.LittleEndian.PutUint64(out[8*i:], id)
	}
	return out
}

// UnpackIDs reads the packed form back.
func UnpackIDs(packed []byte) ([]uint64, error) {
	if len(packed)%8 != 0 {
		return nil, invalid(fmt.Sprintf("packed ids must be a multiple of 8 bytes long, not %d", len(packed)))
	}
	ids := make([]uint64, len(packed)/8)
	for i := range ids {
		ids[i] = binary.LittleEndian.Uint64(packed[8*i:])
	}
	return ids, nil
}

// UnseenFromBitmap returns the ids whose bit is set in a SEEN.FILTERB reply (bit i, LSB
// first, set where candidate i is unseen), in order.
func UnseenFromBitmap(ids []uint64, bitmap []byte) ([]uint64, error) {
	if len(bitmap) != (len(ids)+7)/8 {
		return nil, invalid(fmt.Sprintf("a bitmap of %d candidates has %d bytes, not %d",
			len(ids), (len(ids)+7)/8, len(bitmap)))
	}
	unseen := make([]uint64, 0, len(ids))
	for i, id := range ids {
		if bitmap[i/8]>>(i%8)&1 == 1 {
			unseen = append(unseen, id)
		}
	}
	return unseen, nil
}

// Mark records that ids were shown to the key's user. A ttl above zero sets or refreshes
// the key's expiry in the same round trip.
func (w RedisWindows) Mark(ctx context.Context, key string, ids []uint64, ttl time.Duration) error {
	if len(ids) == 0 {
		return nil
	}
	args := []any{"SEEN.MARKB", key}
	if ttl > 0 {
		args = append(args, "TTL", strconv.FormatInt(int64((ttl+time.Second-1)/time.Second), 10))
	}
	_, err := w.Do(ctx, append(args, PackIDs(ids))...)
	return err
}

// Filter returns the ids not shown yet, in the order given.
func (w RedisWindows) Filter(ctx context.Context, key string, ids []uint64) ([]uint64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	bitmap, err := w.bytes(ctx, "SEEN.FILTERB", key, PackIDs(ids))
	if err != nil {
		return nil, err
	}
	return UnseenFromBitmap(ids, bitmap)
}

// Take returns the first want ids not shown yet and records them as shown, in one step: two
// servers paging one user never get the same id.
func (w RedisWindows) Take(ctx context.Context, key string, want int, ids []uint64) ([]uint64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	packed, err := w.bytes(ctx, "SEEN.TAKEB", key, strconv.Itoa(want), PackIDs(ids))
	if err != nil {
		return nil, err
	}
	return UnpackIDs(packed)
}

// bytes runs a command whose reply is a bulk string; drivers return it as string or []byte.
func (w RedisWindows) bytes(ctx context.Context, args ...any) ([]byte, error) {
	reply, err := w.Do(ctx, args...)
	if err != nil {
		return nil, err
	}
	switch r := reply.(type) {
	case string:
		return []byte(r), nil
	case []byte:
		return r, nil
	}
	return nil, fmt.Errorf("seen: %v replied %T, not a bulk string", args[0], reply)
}
