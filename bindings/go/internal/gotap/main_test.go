package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// capture runs the events through a tap and returns what it printed.
func capture(t *testing.T, events []event) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	tp := &tap{output: map[string][]string{}, parents: map[string]bool{},
		childFailed: map[string]bool{}, pkgFailed: map[string]bool{}}
	for _, e := range events {
		tp.handle(e)
	}
	os.Stdout = stdout
	w.Close()
	var buf bytes.Buffer
	io.Copy(&buf, r)
	return buf.String()
}

func TestLeavesAreTheCases(t *testing.T) {
	got := capture(t, []event{
		{Action: "pass", Package: "p", Test: "TestA/one"},
		{Action: "fail", Package: "p", Test: "TestA/two"},
		{Action: "fail", Package: "p", Test: "TestA"}, // failed through its subtest: no line
		{Action: "pass", Package: "p", Test: "TestB"},
		{Action: "output", Package: "p", Test: "TestC", Output: "    c_test.go:9: no vectors\n"},
		{Action: "skip", Package: "p", Test: "TestC"},
		{Action: "fail", Package: "p"}, // already explained by TestA/two
	})
	want := "ok 1 - TestA/one\nnot ok 2 - TestA/two\nok 3 - TestB\nok 4 - TestC # SKIP c_test.go:9: no vectors\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestParentFailingOnItsOwnGetsALine(t *testing.T) {
	got := capture(t, []event{
		{Action: "pass", Package: "p", Test: "TestA/one"},
		{Action: "output", Package: "p", Test: "TestA", Output: "cleanup failed\n"},
		{Action: "fail", Package: "p", Test: "TestA"},
	})
	if !strings.HasPrefix(got, "ok 1 - TestA/one\nnot ok 2 - TestA\n# cleanup failed\n") {
		t.Errorf("got\n%s", got)
	}
}

func TestPackageFailureWithoutTests(t *testing.T) {
	got := capture(t, []event{
		{Action: "output", Package: "p", Output: "panic: boom\n"},
		{Action: "fail", Package: "p"},
	})
	if got != "not ok 1 - p\n# package failed\n# panic: boom\n" {
		t.Errorf("got\n%q", got)
	}
}
