package seen

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// docs/go.md quotes the Example functions, which go test runs: every Go block of the page
// must appear verbatim in an example*_test.go file, and every Example must be quoted, so
// the page cannot show code that was not run.
func TestDocsQuoteTheExamples(t *testing.T) {
	page, err := os.ReadFile("../../docs/go.md")
	must(t, err)
	var examples []byte
	for _, b := range sources(t, "example*_test.go") {
		examples = append(examples, b...)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(page), -1)
	quoted := map[string]bool{}
	for _, b := range blocks {
		if !strings.Contains(string(examples), b[1]) {
			t.Errorf("docs/go.md shows code that is not in example*_test.go:\n%s", b[1])
		}
		if m := regexp.MustCompile(`^func (Example\w*)\(`).FindStringSubmatch(b[1]); m != nil {
			quoted[m[1]] = true
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^func (Example\w*)\(`).FindAllStringSubmatch(string(examples), -1) {
		if !quoted[m[1]] {
			t.Errorf("%s is not quoted in docs/go.md", m[1])
		}
	}
}
