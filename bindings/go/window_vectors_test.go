package seen

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The shared window vectors (tests/vectors/window_*.vec): a script of clock changes, adds and
// queries; the window is created at the first `now`, and the .seen beside the .vec is the
// window serialized after the script.

type windowVector struct {
	opts  WindowOptions
	start uint32 // the first now: when the window is created
	steps []windowStep
}

// windowStep is one add or query, at clock now.
type windowStep struct {
	scriptStep
	now uint32
}

func readWindowVector(t *testing.T, file string) windowVector {
	t.Helper()
	var v windowVector
	var now uint32
	started := false
	forEachDirective(t, file, func(n int, f []string) error { return v.parse(n, f, &now, &started) })
	if !started {
		t.Fatalf("%s: no `now`, so no window", file)
	}
	return v
}

// parse applies one directive; anything unknown is an error, so format drift fails loudly.
func (v *windowVector) parse(line int, f []string, now *uint32, started *bool) error {
	if err := knownDirective(f, map[string]int{"kind": 2, "mode": 2, "span": 2,
		"expected_items": 2, "fpr": 2, "max_slack": 2, "seed": 2, "now": 2, "add_u64": 2,
		"add_key": 2, "query_u64": 3, "query_key": 3}); err != nil {
		return err
	}
	u32 := func(s string) (uint32, error) {
		x, err := strconv.ParseUint(s, 10, 32)
		return uint32(x), err
	}
	var err error
	switch f[0] {
	case "kind":
		if f[1] != "window" {
			err = fmt.Errorf("kind %q in a window vector", f[1])
		}
	case "mode":
		switch f[1] {
		case "count":
			v.opts.Mode = CountWindow
		case "time":
			v.opts.Mode = TimeWindow
		default:
			err = fmt.Errorf("mode %q", f[1])
		}
	case "span":
		v.opts.Span, err = u32(f[1])
	case "expected_items":
		v.opts.ExpectedItems, err = u32(f[1])
	case "fpr":
		v.opts.FPR, err = strconv.ParseFloat(f[1], 64)
	case "max_slack":
		v.opts.MaxSlack, err = strconv.ParseFloat(f[1], 64)
	case "seed":
		v.opts.Seed, err = strconv.ParseUint(f[1], 10, 64)
	case "now":
		*now, err = u32(f[1])
		if !*started {
			v.start, *started = *now, true
		}
	case "add_u64", "add_key", "query_u64", "query_key":
		if !*started {
			return fmt.Errorf("%s before the first now", f[0])
		}
		s := windowStep{now: *now}
		s.scriptStep, err = parseStep(line, f)
		v.steps = append(v.steps, s)
	}
	return err
}

// checkWindowReplay replays the script, one call per step or in batches (runs of adds, or
// of queries, at one clock), checks every answer, then compares the bytes to the .seen.
func checkWindowReplay(t *testing.T, file string, batches bool) {
	v := readWindowVector(t, file)
	w, err := NewWindow(v.opts, v.start)
	must(t, err)
	defer w.Close()
	queries := 0
	for i := 0; i < len(v.steps); {
		j := i + 1
		if batches {
			for j < len(v.steps) && v.steps[j].op == v.steps[i].op && v.steps[j].now == v.steps[i].now {
				j++
			}
		}
		run := v.steps[i:j]
		if run[0].op == opQuery {
			queries += len(run)
			checkWindowAnswers(t, w, run, batches)
		} else if batches {
			addWindowBatch(t, w, run)
		} else {
			s := run[0]
			if s.isKey {
				must(t, w.Add(s.key, s.now))
			} else {
				must(t, w.AddUint64(s.id, s.now))
			}
		}
		i = j
	}
	if queries < 100 {
		t.Errorf("only %d queries", queries)
	}
	got, err := w.MarshalBinary()
	must(t, err)
	matchSeen(t, file, got)
}

// addWindowBatch adds a run of adds in order: consecutive ids as one AddUint64s, consecutive
// keys as one AddKeys (the order between ids and keys is kept).
func addWindowBatch(t *testing.T, w *Window, run []windowStep) {
	for i := 0; i < len(run); {
		j := i + 1
		for j < len(run) && run[j].isKey == run[i].isKey {
			j++
		}
		steps := make([]scriptStep, 0, j-i)
		for _, s := range run[i:j] {
			steps = append(steps, s.scriptStep)
		}
		if run[i].isKey {
			must(t, w.AddKeys(runKeys(steps), run[i].now))
		} else {
			must(t, w.AddUint64s(runIDs(steps), run[i].now))
		}
		i = j
	}
}

// checkWindowAnswers checks a run of queries at one clock: singly, or as one batch of ids
// and one of keys.
func checkWindowAnswers(t *testing.T, w *Window, run []windowStep, batch bool) {
	t.Helper()
	got := make([]bool, len(run))
	if batch {
		var ids []uint64
		var keys Keys
		for _, s := range run {
			if s.isKey {
				keys.Append(s.key)
			} else {
				ids = append(ids, s.id)
			}
		}
		idOut, keyOut := make([]bool, len(ids)), make([]bool, keys.Len())
		must(t, w.TestUint64s(ids, run[0].now, idOut))
		must(t, w.TestKeys(keys, run[0].now, keyOut))
		for i, s := range run {
			if s.isKey {
				got[i], keyOut = keyOut[0], keyOut[1:]
			} else {
				got[i], idOut = idOut[0], idOut[1:]
			}
		}
	} else {
		for i, s := range run {
			if s.isKey {
				got[i] = w.Test(s.key, s.now)
			} else {
				got[i] = w.TestUint64(s.id, s.now)
			}
		}
	}
	for i, s := range run {
		if got[i] != s.answer {
			t.Errorf("line %d: answer %v, the vector says %v", s.line, got[i], s.answer)
		}
	}
}

// checkWindowRead reads the .seen and checks the queries that follow the last add (they ask
// the window as serialized), singly and as strings.
func checkWindowRead(t *testing.T, file string) {
	v := readWindowVector(t, file)
	data, err := os.ReadFile(strings.TrimSuffix(file, ".vec") + ".seen")
	must(t, err)
	var w Window
	must(t, w.UnmarshalBinary(data))
	defer w.Close()
	info := w.Info()
	if info.Mode != v.opts.Mode || info.Span < v.opts.Span || info.Seed != v.opts.Seed {
		t.Errorf("info %+v does not match the vector's options %+v", info, v.opts)
	}
	last := 0
	for i, s := range v.steps {
		if s.op != opQuery {
			last = i + 1
		}
	}
	tail := v.steps[last:]
	if len(tail) == 0 {
		t.Fatal("no queries after the last add")
	}
	checkWindowAnswers(t, &w, tail, false)
	for _, s := range tail {
		if s.isKey {
			var out [1]bool
			must(t, w.TestStrings([]string{string(s.key)}, s.now, out[:]))
			if got := w.TestString(string(s.key), s.now); out[0] != s.answer || got != s.answer {
				t.Errorf("line %d: as a string: %v (batch), %v (single); want %v", s.line, out[0], got, s.answer)
			}
		}
	}
}
