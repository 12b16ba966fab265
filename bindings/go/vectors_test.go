package seen

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shared vectors of tests/vectors: every language builds the same bytes from a .vec and
// gives the same answers from the .seen next to it.
const vectorDir = "../../tests/vectors"

func TestVectors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(vectorDir, "*.vec"))
	if len(files) == 0 {
		t.Fatal("no vectors in " + vectorDir + ": the directory is missing or wrong")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".vec")
		switch kind := vectorKind(t, file); kind {
		case "bloom", "counting", "scalable": // script_vectors_test.go
			t.Run(name+"/replay", func(t *testing.T) { checkScriptReplay(t, file, false) })
			t.Run(name+"/replay in batches", func(t *testing.T) { checkScriptReplay(t, file, true) })
			t.Run(name+"/read", func(t *testing.T) { checkScriptRead(t, file) })
		case "window": // window_vectors_test.go
			t.Run(name+"/replay", func(t *testing.T) { checkWindowReplay(t, file, false) })
			t.Run(name+"/replay in batches", func(t *testing.T) { checkWindowReplay(t, file, true) })
			t.Run(name+"/read", func(t *testing.T) { checkWindowRead(t, file) })
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

// matchSeen compares the serialized filter with the .seen beside the .vec.
func matchSeen(t *testing.T, file string, got []byte) {
	t.Helper()
	want, err := os.ReadFile(strings.TrimSuffix(file, ".vec") + ".seen")
	must(t, err)
	if !bytes.Equal(got, want) {
		t.Fatalf("built %d bytes, the .seen has %d; first difference at byte %d",
			len(got), len(want), firstDifference(got, want))
	}
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
