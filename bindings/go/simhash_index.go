package seen

import (
	"fmt"
	"runtime"
)

// SimHashIndex holds (id, fingerprint) pairs and returns every pair within Hamming distance K
// of a query, exactly: never a miss against a brute-force scan. It cuts the 64 bits into
// max(K+1, 4) blocks, one lookup table per block (pigeonhole), so a query at K ≤ 3 over a
// million fingerprints takes well under a microsecond, in about 30 bytes per fingerprint.
// Larger K costs more per query (docs/simhash.md states it for each K up to 7).
//
// The index is a multiset: adding an id twice keeps both pairs, and queries report each
// (Remove takes them all). Adds are staged, and the first query after them rebuilds the
// tables in O(n); Build does it up front.
//
// Concurrency: Query, QueryWithin, Any, AnyMany, QueryMany, Clusters, Build, Len, Info,
// MarshalBinary and Save may run from any number of goroutines at once. Add, AddMany,
// Remove, UnmarshalBinary and Close need exclusive access: no other call may run meanwhile
// (use a sync.RWMutex, writers taking the write lock).
//
// Its memory lives in C (or in a mapped file). Call Close when done; a finalizer frees a
// forgotten index as a backstop.
type SimHashIndex struct {
	h *indexHandle // nil once closed
}

type indexHandle = owned[*cIndex, indexFacts]

// indexFacts are what an index's handle keeps of it (handle.go).
type indexFacts struct {
	k        uint32
	readOnly bool
	count    int // pairs, staged ones included; changes only under exclusive access
}

func indexFactsOf(c *cIndex) (indexFacts, error) {
	info, err := cIndexInfo(c)
	return indexFacts{k: uint32(info.K), readOnly: info.ReadOnly, count: info.Len}, err
}

// Match is one pair found by a query: its id and its distance to the query, 0..K.
type Match struct {
	ID       uint64
	Distance int
}

// SimHashIndexInfo describes an index.
type SimHashIndexInfo struct {
	Len      int    // pairs
	K        int    // the largest distance a query may ask for
	ReadOnly bool   // opened by OpenSimHashIndex
	Bytes    uint64 // memory of the built tables
}

// MaxSimHashK is the largest K an index can have.
const MaxSimHashK = 7

// NewSimHashIndex is an empty index whose queries find every pair within k bits, 0..7.
func NewSimHashIndex(k int) (*SimHashIndex, error) {
	if k < 0 || k > MaxSimHashK {
		return nil, invalid(fmt.Sprintf("k is %d; a simhash index takes 0..%d", k, MaxSimHashK))
	}
	return adoptIndex(cIndexCreate(uint32(k)))
}

// OpenSimHashIndex maps an index written by Save (or the seen CLI) read-only and answers
// queries from the file in place, with no copy: Add and Remove fail with ErrReadOnly (to
// change it, UnmarshalBinary its bytes into a writable copy). verify checks the payload
// checksum first; without it a large index opens at once, and its bucket offsets are still
// checked, so a damaged file cannot make a query read outside it.
func OpenSimHashIndex(path string, verify bool) (*SimHashIndex, error) {
	return adoptIndex(cIndexOpen(path, verify))
}

func adoptIndex(c *cIndex, err error) (*SimHashIndex, error) {
	wrap := func(h *indexHandle) *SimHashIndex { return &SimHashIndex{h: h} }
	return adoptAs(wrap, c, err, indexFactsOf, cIndexFree)
}

// live is the open handle, or ErrClosed (also for a copy of a closed index).
func (x *SimHashIndex) live() (*indexHandle, error) {
	if x == nil {
		return nil, ErrClosed
	}
	return x.h.open()
}

// liveWithin is the open handle and k, refused outside 0..K before it reaches C as a uint32.
func (x *SimHashIndex) liveWithin(k int) (*indexHandle, uint32, error) {
	h, err := x.live()
	if err != nil {
		return nil, 0, err
	}
	if k < 0 || k > int(h.meta.k) {
		return nil, 0, invalid(fmt.Sprintf("k is %d; this index answers 0..%d", k, h.meta.k))
	}
	return h, uint32(k), nil
}

// Close frees the index (and unmaps an opened one). Closing twice is a no-op; any other use
// after Close returns ErrClosed.
func (x *SimHashIndex) Close() error {
	if x == nil {
		return nil
	}
	return closeOwned(&x.h, nil)
}

// K is the largest distance the index answers, 0 once closed.
func (x *SimHashIndex) K() int { return int(factsOf(x.live).k) }

// Len is the number of pairs (staged adds included), 0 once closed.
func (x *SimHashIndex) Len() int { return factsOf(x.live).count }

// Info describes the index; it builds the tables first if pairs were added or removed.
func (x *SimHashIndex) Info() (SimHashIndexInfo, error) {
	return withCValue(x.live, cIndexInfo)
}

// Add adds the pair (id, fp). An id added before gets a second pair.
func (x *SimHashIndex) Add(id, fp uint64) error {
	h, err := x.live()
	if err != nil {
		return err
	}
	err = cIndexAddOne(h.c, fp, id)
	runtime.KeepAlive(h)
	if err == nil {
		h.meta.count++
	}
	return err
}

// AddMany adds the pairs (ids[i], fps[i]) in one C call; ids and fps must be as long as each
// other.
func (x *SimHashIndex) AddMany(ids, fps []uint64) error {
	h, err := x.live()
	if err != nil {
		return err
	}
	if len(ids) != len(fps) {
		return invalid(fmt.Sprintf("%d ids for %d fingerprints", len(ids), len(fps)))
	}
	err = cIndexAdd(h.c, fps, ids)
	runtime.KeepAlive(h)
	if err == nil {
		h.meta.count += len(ids)
	}
	return err
}

// Remove removes every pair of the given ids and returns how many pairs went. Ids not in the
// index are ignored. Each call costs O(Len), so remove many ids in one call.
func (x *SimHashIndex) Remove(ids ...uint64) (int, error) {
	h, err := x.live()
	if err != nil {
		return 0, err
	}
	removed, err := cIndexRemove(h.c, ids)
	runtime.KeepAlive(h)
	h.meta.count -= int(removed)
	return int(removed), err
}

// Build rebuilds the tables now, if pairs were added or removed since the last build;
// otherwise the next query does it.
func (x *SimHashIndex) Build() error {
	h, err := x.live()
	if err != nil {
		return err
	}
	err = cIndexBuild(h.c)
	runtime.KeepAlive(h)
	return err
}

// Query is every pair within K of fp, nearest first (by distance, then id).
func (x *SimHashIndex) Query(fp uint64) ([]Match, error) {
	h, err := x.live()
	if err != nil {
		return nil, err
	}
	return x.QueryWithin(fp, int(h.meta.k))
}

// queryGuess is how many matches a single query makes room for before asking C; a query
// with more is answered by a second call of the exact size.
const queryGuess = 16

// QueryWithin is Query with a smaller distance, 0..K.
func (x *SimHashIndex) QueryWithin(fp uint64, k int) ([]Match, error) {
	h, ck, err := x.liveWithin(k)
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(h)
	ids := make([]uint64, queryGuess)
	distances := make([]uint32, queryGuess)
	for {
		found, err := cIndexQuery(h.c, fp, ck, ids, distances)
		if err == nil {
			return matchesOf(ids[:found], distances[:found]), nil
		}
		if !isStatus(err, ErrBufferTooSmall) || found <= len(ids) {
			return nil, err
		}
		ids, distances = make([]uint64, found), make([]uint32, found)
	}
}

// Any reports whether some pair lies within K of fp; it stops at the first.
func (x *SimHashIndex) Any(fp uint64) (bool, error) {
	h, err := x.live()
	if err != nil {
		return false, err
	}
	found, err := cIndexAnyOne(h.c, fp, h.meta.k)
	runtime.KeepAlive(h)
	return found, err
}

// AnyMany sets out[i] to Any(fps[i]) for every i < len(fps), in one C call. out must be at
// least as long as fps.
func (x *SimHashIndex) AnyMany(fps []uint64, out []bool) error {
	return withLive(x.live, func(h *indexHandle) error {
		if len(out) < len(fps) {
			return invalid(fmt.Sprintf("out has %d elements for %d fingerprints", len(out), len(fps)))
		}
		return cIndexAny(h.c, fps, h.meta.k, boolsPtr(out))
	})
}

// QueryMany is Query of every fingerprint, in one C call (two when the matches outnumber
// its first guess): result i holds the matches of fps[i], nearest first. The results share
// one backing array.
func (x *SimHashIndex) QueryMany(fps []uint64) ([][]Match, error) {
	h, err := x.live()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(h)
	offsets := make([]uint64, len(fps)+1)
	room := 4*len(fps) + queryGuess
	for {
		ids, distances := make([]uint64, room), make([]uint32, room)
		err := cIndexQueryBatch(h.c, fps, h.meta.k, offsets, ids, distances)
		total := offsets[len(fps)]
		if err == nil {
			all := matchesOf(ids[:total], distances[:total])
			out := make([][]Match, len(fps))
			for i := range fps {
				out[i] = all[offsets[i]:offsets[i+1]:offsets[i+1]]
			}
			return out, nil
		}
		if !isStatus(err, ErrBufferTooSmall) || total <= uint64(room) {
			return nil, err
		}
		if total > uint64(maxInt) {
			return nil, &Error{Status: ErrTooLarge, Message: fmt.Sprintf("%d matches", total)}
		}
		room = int(total)
	}
}

// Clusters groups the pairs around representatives, never by chains (all pairs at once,
// spread over the cores): the pair with the smallest id leads a group and takes, in id order,
// each pair within K of it that is within K of every member taken so far; then the next pair
// not yet grouped, and so on, so every two members are within K of each other. Each group
// lists its pairs' ids, and a pair with no neighbour is a
// group of one, so every pair appears exactly once. Groups come in the order of their first
// pair, as libseen lists the pairs. Keep the groups longer than one for the duplicates.
func (x *SimHashIndex) Clusters() ([][]uint64, error) {
	h, err := x.live()
	if err != nil {
		return nil, err
	}
	return x.ClustersWithin(int(h.meta.k))
}

// ClustersWithin is Clusters with a smaller distance, 0..K.
func (x *SimHashIndex) ClustersWithin(k int) ([][]uint64, error) {
	h, ck, err := x.liveWithin(k)
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(h)
	n := h.meta.count
	for {
		ids, groups := make([]uint64, n), make([]uint32, n)
		count, err := cIndexClusters(h.c, ck, ids, groups)
		if err == nil {
			return groupIDs(ids[:count], groups[:count])
		}
		if !isStatus(err, ErrBufferTooSmall) || count <= n {
			return nil, err
		}
		n = count
	}
}

// groupIDs turns libseen's (id, group) lists into one slice per group, sharing one backing
// array. Groups are numbered 0, 1, ... in order of first appearance.
func groupIDs(ids []uint64, groups []uint32) ([][]uint64, error) {
	sizes := []int{}
	for i, g := range groups {
		switch {
		case int(g) < len(sizes):
			sizes[g]++
		case int(g) == len(sizes):
			sizes = append(sizes, 1)
		default:
			return nil, &Error{Status: ErrInternal, Message: fmt.Sprintf(
				"clusters: pair %d is in group %d before group %d appeared", i, g, len(sizes))}
		}
	}
	all := make([]uint64, 0, len(ids))
	out := make([][]uint64, len(sizes))
	start := 0
	for g, size := range sizes {
		out[g] = all[start : start : start+size]
		start += size
	}
	for i, g := range groups {
		out[g] = append(out[g], ids[i])
	}
	return out, nil
}

func matchesOf(ids []uint64, distances []uint32) []Match {
	out := make([]Match, len(ids))
	for i, id := range ids {
		out[i] = Match{ID: id, Distance: int(distances[i])}
	}
	return out
}

const maxInt = int(^uint(0) >> 1)

// isStatus reports whether err carries status s.
func isStatus(err error, s Status) bool {
	e, ok := err.(*Error)
	return ok && e.Status == s
}

// MarshalBinary is the index's serialized form, kind 6 of the container format
// (encoding.BinaryMarshaler), with its tables built: the same bytes in every language and in
// the files of Save.
func (x *SimHashIndex) MarshalBinary() ([]byte, error) {
	h, err := x.live()
	if err != nil {
		return nil, err
	}
	b, err := cIndexMarshal(h.c)
	runtime.KeepAlive(h)
	return b, err
}

// UnmarshalBinary replaces the index with a validated, writable copy of data
// (encoding.BinaryUnmarshaler); a zero SimHashIndex may be the receiver. On error the index
// is unchanged. Other kinds of seen files are refused with ErrWrongKind.
func (x *SimHashIndex) UnmarshalBinary(data []byte) error {
	g, err := adoptIndex(cIndexDeserialize(data))
	return replaceBy(x, g, err)
}

// Save writes the index to path crash-safely (a temporary file, fsync, then rename), so the
// previous file survives a failure. OpenSimHashIndex maps the result.
func (x *SimHashIndex) Save(path string) error {
	return withLive(x.live, func(h *indexHandle) error {
		return cIndexSave(h.c, path)
	})
}
