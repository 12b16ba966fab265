package seen

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"testing"
)

// Every Go file of the binding is as gofmt writes it (`gofmt -l bindings/go` lists none), so
// a diff never mixes layout with change. go/format is gofmt's own printer.
func TestSourcesAreGofmted(t *testing.T) {
	for file, src := range sources(t, "*.go", "internal/*/*.go") {
		formatted, err := format.Source(src)
		if err != nil {
			t.Errorf("%s: %v", file, err)
		} else if !bytes.Equal(src, formatted) {
			t.Errorf("%s is not gofmt'd: run gofmt -w bindings/go", file)
		}
	}
}

// sources are the contents of the files that match the patterns, by name.
func sources(t *testing.T, patterns ...string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, pattern := range patterns {
		names, err := filepath.Glob(pattern)
		must(t, err)
		for _, name := range names {
			b, err := os.ReadFile(name)
			must(t, err)
			files[name] = b
		}
	}
	return files
}
