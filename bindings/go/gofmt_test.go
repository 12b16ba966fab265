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
	files, err := filepath.Glob("*.go")
	must(t, err)
	internal, err := filepath.Glob("internal/*/*.go")
	must(t, err)
	for _, file := range append(files, internal...) {
		src, err := os.ReadFile(file)
		must(t, err)
		formatted, err := format.Source(src)
		if err != nil {
			t.Errorf("%s: %v", file, err)
		} else if !bytes.Equal(src, formatted) {
			t.Errorf("%s is not gofmt'd: run gofmt -w bindings/go", file)
		}
	}
}
