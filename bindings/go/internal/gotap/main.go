// Command gotap runs `go test -json` and reports each test case as one TAP line, so that
// meson counts Go tests one by one. usage: gotap GO [go test flags and packages...]
//
// A test with subtests is reported through its subtests, the leaves; it gets a line of its
// own only if it failed while all of its subtests passed. A package that fails without a
// failing test (a build error, a panic outside tests) gets one failing line.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

type tap struct {
	count, failed int
	output        map[string][]string // test key -> its output, printed if it fails
	parents       map[string]bool     // tests that have subtests
	childFailed   map[string]bool     // tests with a failed subtest
	pkgFailed     map[string]bool     // packages with a failing test line
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gotap GO [go test flags and packages...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], append([]string{"test", "-json"}, os.Args[2:]...)...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		fmt.Printf("Bail out! cannot run go test: %v\n", err)
		os.Exit(1)
	}
	t := &tap{output: map[string][]string{}, parents: map[string]bool{},
		childFailed: map[string]bool{}, pkgFailed: map[string]bool{}}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 1<<24)
	for lines.Scan() {
		var e event
		if json.Unmarshal(lines.Bytes(), &e) != nil {
			fmt.Fprintln(os.Stderr, lines.Text()) // not an event: pass it on
			continue
		}
		t.handle(e)
	}
	status := 0
	if err := cmd.Wait(); err != nil {
		status = 1
		if t.failed == 0 {
			t.line(false, "go test", fmt.Sprintf("go test failed: %v", err), nil)
		}
	}
	fmt.Printf("1..%d\n", t.count)
	os.Exit(status)
}

func (t *tap) handle(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "output":
		t.output[key] = append(t.output[key], strings.TrimRight(e.Output, "\n"))
	case "build-output": // compiler errors: for the log, they belong to no test
		fmt.Fprint(os.Stderr, e.Output)
	case "pass", "fail", "skip":
		if e.Test == "" {
			t.endPackage(e, key)
			return
		}
		failed := e.Action == "fail"
		if i := strings.LastIndexByte(e.Test, '/'); i >= 0 {
			parent := e.Package + " " + e.Test[:i]
			t.parents[parent] = true
			t.childFailed[parent] = t.childFailed[parent] || failed
		}
		if !t.parents[key] || (failed && !t.childFailed[key]) {
			t.report(e, key)
		}
		delete(t.output, key)
	}
}

func (t *tap) report(e event, key string) {
	name := strings.ReplaceAll(e.Test, "#", `\#`)
	switch e.Action {
	case "skip":
		t.line(true, name+" # SKIP "+skipReason(t.output[key]), "", nil)
	case "fail":
		t.pkgFailed[e.Package] = true
		t.line(false, name, "", t.output[key])
	default:
		t.line(true, name, "", nil)
	}
}

func (t *tap) endPackage(e event, key string) {
	if e.Action == "fail" && !t.pkgFailed[e.Package] {
		t.line(false, e.Package, "package failed", t.output[key])
	}
	delete(t.output, key)
}

func (t *tap) line(ok bool, name, note string, output []string) {
	t.count++
	status := "ok"
	if !ok {
		status = "not ok"
		t.failed++
	}
	fmt.Printf("%s %d - %s\n", status, t.count, name)
	if note != "" {
		fmt.Printf("# %s\n", note)
	}
	for _, l := range output {
		fmt.Printf("# %s\n", l)
	}
}

// skipReason is the message of t.Skip, the last line of output before "--- SKIP".
func skipReason(output []string) string {
	for i := len(output) - 1; i >= 0; i-- {
		l := strings.TrimSpace(output[i])
		if l != "" && !strings.HasPrefix(l, "--- SKIP") {
			return l
		}
	}
	return ""
}
