package seen

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// The shared vectors of the Bloom, counting and scalable filters (tests/vectors/bloom_*.vec,
// counting_*.vec and scalable_*.vec): a script of adds, removes (counting only, each with
// whether it removed the key) and queries, applied in order; the .seen beside the .vec is the
// filter serialized after the script.

type scriptVector struct {
	kind          string
	expectedItems uint64          // bloom, counting
	scalable      ScalableOptions // scalable: capacity, fpr (the bound), growth, tightening, seed
	fpr           float64
	seed          uint64
	steps         []scriptStep
}

type scriptOp int

const (
	opAdd scriptOp = iota
	opRemove
	opQuery
)

// scriptStep is one add, remove or query. answer is a query's answer, or whether a remove
// removed the key.
type scriptStep struct {
	line   int
	op     scriptOp
	isKey  bool
	id     uint64
	key    []byte
	answer bool
}

func readScriptVector(t *testing.T, file string) scriptVector {
	t.Helper()
	var v scriptVector
	forEachDirective(t, file, func(n int, f []string) error { return v.parse(n, f) })
	v.scalable.FPR, v.scalable.Seed = v.fpr, v.seed
	if len(v.steps) == 0 {
		t.Fatalf("%s: an empty script", file)
	}
	return v
}

// parse applies one directive; anything unknown (or a remove outside a counting script) is
// an error, so format drift fails loudly.
func (v *scriptVector) parse(line int, f []string) error {
	if err := knownDirective(f, map[string]int{"kind": 2, "expected_items": 2, "fpr": 2,
		"seed": 2, "capacity": 2, "growth": 2, "tightening": 2, "add_u64": 2, "add_key": 2,
		"remove_u64": 3, "remove_key": 3, "query_u64": 3, "query_key": 3}); err != nil {
		return err
	}
	var err error
	switch f[0] {
	case "kind":
		v.kind = f[1]
		if v.kind != "bloom" && v.kind != "counting" && v.kind != "scalable" {
			err = fmt.Errorf("kind %q in a Bloom, counting or scalable vector", f[1])
		}
	case "expected_items":
		v.expectedItems, err = strconv.ParseUint(f[1], 10, 64)
	case "fpr":
		v.fpr, err = strconv.ParseFloat(f[1], 64)
	case "seed":
		v.seed, err = strconv.ParseUint(f[1], 10, 64)
	case "capacity":
		v.scalable.InitialCapacity, err = strconv.ParseUint(f[1], 10, 64)
	case "growth":
		v.scalable.Growth, err = strconv.ParseFloat(f[1], 64)
	case "tightening":
		v.scalable.Tightening, err = strconv.ParseFloat(f[1], 64)
	default:
		var s scriptStep
		s, err = parseStep(line, f)
		if s.op == opRemove && v.kind != "counting" {
			return fmt.Errorf("%s in a %q vector", f[0], v.kind)
		}
		v.steps = append(v.steps, s)
	}
	return err
}

// runs splits the steps into maximal runs of one op and one key type, in order: each run is
// one batch call.
func (v scriptVector) runs() [][]scriptStep {
	var runs [][]scriptStep
	for i := 0; i < len(v.steps); {
		j := i + 1
		for j < len(v.steps) && v.steps[j].op == v.steps[i].op && v.steps[j].isKey == v.steps[i].isKey {
			j++
		}
		runs = append(runs, v.steps[i:j])
		i = j
	}
	return runs
}

func (s scriptStep) what() string {
	if s.isKey {
		return fmt.Sprintf("line %d (key %x)", s.line, s.key)
	}
	return fmt.Sprintf("line %d (id %d)", s.line, s.id)
}

// runIDs and runKeys are the ids or the keys of a run.
func runIDs(run []scriptStep) []uint64 {
	ids := make([]uint64, len(run))
	for i, s := range run {
		ids[i] = s.id
	}
	return ids
}

func runKeys(run []scriptStep) Keys {
	var k Keys
	for _, s := range run {
		k.Append(s.key)
	}
	return k
}

// checkAnswers compares a run's answers (query results or removed flags) with the script.
func checkAnswers(t *testing.T, run []scriptStep, got []bool) {
	t.Helper()
	for i, s := range run {
		if got[i] != s.answer {
			t.Errorf("%s: %v, the vector says %v", s.what(), got[i], s.answer)
		}
	}
}

// scriptFilter is what the Bloom, counting and scalable filters share for a script: adds
// and queries, single and batched.
type scriptFilter interface {
	serialForm
	Add([]byte) error
	AddUint64(uint64) error
	Test([]byte) bool
	TestUint64(uint64) bool
	AddKeys(Keys) error
	AddUint64s([]uint64) error
	TestKeys(Keys, []bool) error
	TestUint64s([]uint64, []bool) error
}

// remover is what a counting script's removes call (the parser allows them nowhere else).
type remover interface {
	Remove([]byte) error
	RemoveUint64(uint64) error
	RemoveKeys(Keys, []bool) error
	RemoveUint64s([]uint64, []bool) error
}

// newScriptFilter is the empty filter of the script's kind and options.
func newScriptFilter(v scriptVector) (scriptFilter, error) {
	switch v.kind {
	case "bloom":
		return NewWithSeed(v.expectedItems, v.fpr, v.seed)
	case "counting":
		return NewCountingWithSeed(v.expectedItems, v.fpr, v.seed)
	}
	return NewScalable(v.scalable)
}

// checkScriptReplay replays the script, one call per step or one batch per run, checking
// every remove and query, then compares the bytes with the .seen.
func checkScriptReplay(t *testing.T, file string, batched bool) {
	v := readScriptVector(t, file)
	f, err := newScriptFilter(v)
	must(t, err)
	defer f.Close()
	if batched {
		for _, run := range v.runs() {
			applyBatch(t, f, run)
		}
	} else {
		for _, s := range v.steps {
			applyStep(t, f, s)
		}
	}
	got, err := f.MarshalBinary()
	must(t, err)
	matchSeen(t, file, got)
}

// applyStep makes a step's call and checks its answer.
func applyStep(t *testing.T, f scriptFilter, s scriptStep) {
	t.Helper()
	var err error
	var got bool
	switch {
	case s.op == opAdd && s.isKey:
		err = f.Add(s.key)
	case s.op == opAdd:
		err = f.AddUint64(s.id)
	case s.op == opRemove && s.isKey:
		err = f.(remover).Remove(s.key)
	case s.op == opRemove:
		err = f.(remover).RemoveUint64(s.id)
	case s.isKey:
		got = f.Test(s.key)
	default:
		got = f.TestUint64(s.id)
	}
	if s.op == opRemove && (err == nil || errors.Is(err, ErrNotFound)) {
		got, err = err == nil, nil
	}
	if err != nil {
		t.Fatalf("%s: %v", s.what(), err)
	}
	if s.op != opAdd && got != s.answer {
		t.Errorf("%s: %v, the vector says %v", s.what(), got, s.answer)
	}
}

// applyBatch makes a run's batch call and checks its answers; a batch of removes must say
// ErrNotFound exactly when one of its keys was absent.
func applyBatch(t *testing.T, f scriptFilter, run []scriptStep) {
	t.Helper()
	out := make([]bool, len(run))
	var err error
	switch first := run[0]; {
	case first.op == opAdd && first.isKey:
		err = f.AddKeys(runKeys(run))
	case first.op == opAdd:
		err = f.AddUint64s(runIDs(run))
	case first.op == opRemove && first.isKey:
		err = f.(remover).RemoveKeys(runKeys(run), out)
	case first.op == opRemove:
		err = f.(remover).RemoveUint64s(runIDs(run), out)
	case first.isKey:
		err = f.TestKeys(runKeys(run), out)
	default:
		err = f.TestUint64s(runIDs(run), out)
	}
	if run[0].op == opRemove {
		absent := false
		for i := range run {
			absent = absent || !run[i].answer
		}
		if absent != errors.Is(err, ErrNotFound) {
			t.Errorf("%s: a batch of %d removes returned %v", run[0].what(), len(run), err)
		}
		if errors.Is(err, ErrNotFound) {
			err = nil
		}
	}
	if err != nil {
		t.Fatalf("%s: %v", run[0].what(), err)
	}
	if run[0].op != opAdd {
		checkAnswers(t, run, out)
	}
}

// checkScriptRead opens the .seen read-only and checks the queries, singly and in batches.
// Every query of these scripts follows the last add and remove, so the final file answers
// them all.
func checkScriptRead(t *testing.T, file string) {
	v := readScriptVector(t, file)
	f := openScriptSeen(t, v, strings.TrimSuffix(file, ".vec")+".seen")
	defer f.Close()
	queries := 0
	for _, run := range v.runs() {
		if run[0].op == opQuery {
			applyBatch(t, f, run)
			for _, s := range run {
				applyStep(t, f, s)
			}
			queries += len(run)
		}
	}
	if queries == 0 {
		t.Error("the vector has no queries")
	}
}

// openScriptSeen opens a script's .seen read-only and checks that it reports the script's
// options.
func openScriptSeen(t *testing.T, v scriptVector, path string) scriptFilter {
	t.Helper()
	var f scriptFilter
	var err error
	switch v.kind {
	case "bloom":
		f, err = Open(path, true)
	case "counting":
		f, err = OpenCounting(path, true)
	default:
		f, err = OpenScalable(path, true)
	}
	must(t, err)
	checkParams := func(p any, seed, expectedItems uint64, fpr float64, readOnly bool) {
		if seed != v.seed || expectedItems != v.expectedItems || fpr != v.fpr || !readOnly {
			t.Errorf("params %+v", p)
		}
	}
	switch f := f.(type) {
	case *BloomFilter:
		p := f.Params()
		checkParams(p, p.Seed, p.ExpectedItems, p.TargetFPR, p.ReadOnly)
	case *CountingFilter:
		p := f.Params()
		checkParams(p, p.Seed, p.ExpectedItems, p.TargetFPR, p.ReadOnly)
	case *ScalableFilter:
		checkScalableInfo(t, v, f)
	}
	return f
}

// checkScalableInfo checks that an opened scalable filter reports the script's options,
// defaults filled in, and a predicted rate within its bound.
func checkScalableInfo(t *testing.T, v scriptVector, f *ScalableFilter) {
	t.Helper()
	info, err := f.Info()
	must(t, err)
	want := v.scalable
	if want.Growth == 0 {
		want.Growth = 2
	}
	if want.Tightening == 0 {
		want.Tightening = 0.5
	}
	if info.Options != want || !info.ReadOnly || info.PredictedFPR > v.fpr {
		t.Errorf("info %+v, options from the vector %+v", info, want)
	}
}
