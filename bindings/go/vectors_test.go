package seen

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The shared vectors of tests/vectors: every language builds the same bytes from a .vec and
// gives the same answers from the .seen next to it.
const vectorDir = "../../tests/vectors"

// vector is one parsed .vec file.
type vector struct {
	expectedItems uint64
	fpr           float64
	seed          uint64
	addIDs        []uint64
	addKeys       Keys
	queries       []query
}

type query struct {
	line   int
	id     uint64 // when key is nil
	key    []byte
	isKey  bool
	answer bool
}

func TestVectors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(vectorDir, "*.vec"))
	if len(files) == 0 {
		t.Fatal("no vectors in " + vectorDir + ": the directory is missing or wrong")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".vec")
		switch kind := vectorKind(t, file); kind {
		case "bloom":
			t.Run(name+"/build", func(t *testing.T) { checkBuild(t, file) })
			t.Run(name+"/read", func(t *testing.T) { checkRead(t, file) })
		case "window":
			t.Run(name+"/replay", func(t *testing.T) { checkWindowReplay(t, file, false) })
			t.Run(name+"/replay in batches", func(t *testing.T) { checkWindowReplay(t, file, true) })
			t.Run(name+"/read", func(t *testing.T) { checkWindowRead(t, file) })
		case "counting": // counting_vectors_test.go
			t.Run(name+"/replay", func(t *testing.T) { checkCountingReplay(t, file, false) })
			t.Run(name+"/replay in batches", func(t *testing.T) { checkCountingReplay(t, file, true) })
			t.Run(name+"/read", func(t *testing.T) { checkCountingRead(t, file) })
		case "scalable": // counting_vectors_test.go
			t.Run(name+"/build", func(t *testing.T) { checkScalableBuild(t, file, false) })
			t.Run(name+"/build in batches", func(t *testing.T) { checkScalableBuild(t, file, true) })
			t.Run(name+"/read", func(t *testing.T) { checkScalableRead(t, file) })
		case "": // another concept's table, checked by its own test (simhash_texts: TestSimHashVectors)
		default:
			t.Run(name, func(t *testing.T) { t.Errorf("kind %q is unknown to the Go binding", kind) })
		}
	}
}

// vectorKind is the argument of the file's `kind` directive, or "" without one.
func vectorKind(t *testing.T, file string) string {
	b, err := os.ReadFile(file)
	must(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "kind" {
			return f[1]
		}
	}
	return ""
}

// checkBuild builds the filter of a .vec and compares its bytes to the .seen.
func checkBuild(t *testing.T, file string) {
	v := readVector(t, file)
	want, err := os.ReadFile(strings.TrimSuffix(file, ".vec") + ".seen")
	must(t, err)
	f, err := NewWithSeed(v.expectedItems, v.fpr, v.seed)
	must(t, err)
	defer f.Close()
	must(t, f.AddUint64s(v.addIDs))
	must(t, f.AddKeys(v.addKeys))
	got, err := f.MarshalBinary()
	must(t, err)
	if !bytes.Equal(got, want) {
		t.Fatalf("built %d bytes, the .seen has %d; first difference at byte %d",
			len(got), len(want), firstDifference(got, want))
	}
}

// checkRead opens the .seen and checks every query, singly and in one batch.
func checkRead(t *testing.T, file string) {
	v := readVector(t, file)
	f, err := Open(strings.TrimSuffix(file, ".vec")+".seen", true)
	must(t, err)
	defer f.Close()
	for _, q := range v.queries {
		var got bool
		if q.isKey {
			got = f.Test(q.key)
			var out [1]bool
			must(t, f.TestKeys(PackStrings([]string{string(q.key)}), out[:]))
			if out[0] != got {
				t.Errorf("line %d: batch says %v, single says %v", q.line, out[0], got)
			}
		} else {
			got = f.TestUint64(q.id)
			var out [1]bool
			must(t, f.TestUint64s([]uint64{q.id}, out[:]))
			if out[0] != got {
				t.Errorf("line %d: batch says %v, single says %v", q.line, out[0], got)
			}
		}
		if got != q.answer {
			t.Errorf("line %d: answer %v, the vector says %v", q.line, got, q.answer)
		}
	}
	if len(v.queries) == 0 {
		t.Error("the vector has no queries")
	}
}

func readVector(t *testing.T, file string) vector {
	t.Helper()
	var v vector
	forEachDirective(t, file, func(n int, f []string) error { return v.parse(n, f) })
	return v
}

// parse applies one directive; anything unknown is an error, so format drift fails loudly.
func (v *vector) parse(line int, f []string) error {
	want := map[string]int{"kind": 2, "expected_items": 2, "fpr": 2, "seed": 2,
		"add_u64": 2, "add_key": 2, "query_u64": 3, "query_key": 3}
	if n, ok := want[f[0]]; !ok || n != len(f) {
		return fmt.Errorf("unknown directive or wrong field count: %q", strings.Join(f, " "))
	}
	var err error
	switch f[0] {
	case "kind":
		if f[1] != "bloom" {
			err = fmt.Errorf("kind %q, only bloom is known", f[1])
		}
	case "expected_items":
		v.expectedItems, err = strconv.ParseUint(f[1], 10, 64)
	case "fpr":
		v.fpr, err = strconv.ParseFloat(f[1], 64)
	case "seed":
		v.seed, err = strconv.ParseUint(f[1], 10, 64)
	case "add_u64":
		var id uint64
		id, err = strconv.ParseUint(f[1], 10, 64)
		v.addIDs = append(v.addIDs, id)
	case "add_key":
		var key []byte
		key, err = parseKey(f[1])
		v.addKeys.Append(key)
	case "query_u64", "query_key":
		q := query{line: line, isKey: f[0] == "query_key", answer: f[2] == "1"}
		if q.isKey {
			q.key, err = parseKey(f[1])
		} else {
			q.id, err = strconv.ParseUint(f[1], 10, 64)
		}
		if f[2] != "0" && f[2] != "1" {
			err = fmt.Errorf("answer %q is not 0 or 1", f[2])
		}
		v.queries = append(v.queries, q)
	}
	return err
}

// parseKey reads hex bytes, or "-" for the empty key.
func parseKey(s string) ([]byte, error) {
	if s == "-" {
		return []byte{}, nil
	}
	return hex.DecodeString(s)
}

func firstDifference(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) < len(b) {
		return len(a)
	}
	return len(b)
}
