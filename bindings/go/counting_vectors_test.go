package seen

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The shared vectors of the counting and scalable filters (tests/vectors/counting_*.vec and
// scalable_*.vec): a script of adds, removes (counting only, each with whether it removed
// the key) and queries, applied in order; the .seen beside the .vec is the filter serialized
// after the script.

type scriptVector struct {
	kind          string
	expectedItems uint64          // counting
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

// parse applies one directive; anything unknown (or a remove in a scalable script) is an
// error, so format drift fails loudly.
func (v *scriptVector) parse(line int, f []string) error {
	want := map[string]int{"kind": 2, "expected_items": 2, "fpr": 2, "seed": 2, "capacity": 2,
		"growth": 2, "tightening": 2, "add_u64": 2, "add_key": 2, "remove_u64": 3,
		"remove_key": 3, "query_u64": 3, "query_key": 3}
	if n, ok := want[f[0]]; !ok || n != len(f) {
		return fmt.Errorf("unknown directive or wrong field count: %q", strings.Join(f, " "))
	}
	var err error
	switch f[0] {
	case "kind":
		v.kind = f[1]
		if v.kind != "counting" && v.kind != "scalable" {
			err = fmt.Errorf("kind %q in a counting or scalable vector", f[1])
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
		s := scriptStep{line: line, isKey: strings.HasSuffix(f[0], "_key")}
		switch {
		case strings.HasPrefix(f[0], "add"):
			s.op = opAdd
		case strings.HasPrefix(f[0], "remove"):
			s.op = opRemove
			if v.kind != "counting" {
				return fmt.Errorf("%s in a %q vector", f[0], v.kind)
			}
		default:
			s.op = opQuery
		}
		if s.isKey {
			s.key, err = parseKey(f[1])
		} else {
			s.id, err = strconv.ParseUint(f[1], 10, 64)
		}
		if len(f) == 3 {
			if f[2] != "0" && f[2] != "1" {
				return fmt.Errorf("answer %q is not 0 or 1", f[2])
			}
			s.answer = f[2] == "1"
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

// checkCountingReplay replays the script, one call per step or one batch per run, checking
// every remove and query, then compares the bytes with the .seen.
func checkCountingReplay(t *testing.T, file string, batched bool) {
	v := readScriptVector(t, file)
	f, err := NewCountingWithSeed(v.expectedItems, v.fpr, v.seed)
	must(t, err)
	defer f.Close()
	replayScript(t, file, v, f, batched, countingStep, countingBatch)
}

// replayScript replays the script on f, one call per step or (batched) one batch per run,
// then compares f's bytes with the .seen.
func replayScript[F serialForm](t *testing.T, file string, v scriptVector, f F, batched bool,
	step func(*testing.T, F, scriptStep), batch func(*testing.T, F, []scriptStep)) {
	if batched {
		for _, run := range v.runs() {
			batch(t, f, run)
		}
	} else {
		for _, s := range v.steps {
			step(t, f, s)
		}
	}
	got, err := f.MarshalBinary()
	must(t, err)
	matchSeen(t, file, got)
}

func countingStep(t *testing.T, f *CountingFilter, s scriptStep) {
	t.Helper()
	var err error
	var got bool
	switch {
	case s.op == opAdd && s.isKey:
		err = f.Add(s.key)
	case s.op == opAdd:
		err = f.AddUint64(s.id)
	case s.op == opRemove:
		if s.isKey {
			err = f.Remove(s.key)
		} else {
			err = f.RemoveUint64(s.id)
		}
		if err == nil || errors.Is(err, ErrNotFound) {
			got, err = err == nil, nil
		}
	case s.isKey:
		got = f.Test(s.key)
	default:
		got = f.TestUint64(s.id)
	}
	if err != nil {
		t.Fatalf("%s: %v", s.what(), err)
	}
	if s.op != opAdd && got != s.answer {
		t.Errorf("%s: %v, the vector says %v", s.what(), got, s.answer)
	}
}

func countingBatch(t *testing.T, f *CountingFilter, run []scriptStep) {
	t.Helper()
	out := make([]bool, len(run))
	var err error
	switch {
	case run[0].op == opAdd && run[0].isKey:
		err = f.AddKeys(runKeys(run))
	case run[0].op == opAdd:
		err = f.AddUint64s(runIDs(run))
	case run[0].op == opRemove:
		if run[0].isKey {
			err = f.RemoveKeys(runKeys(run), out)
		} else {
			err = f.RemoveUint64s(runIDs(run), out)
		}
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
	case run[0].isKey:
		err = f.TestKeys(runKeys(run), out)
	default:
		err = f.TestUint64s(runIDs(run), out)
	}
	if err != nil {
		t.Fatalf("%s: %v", run[0].what(), err)
	}
	if run[0].op != opAdd {
		checkAnswers(t, run, out)
	}
}

// checkCountingRead opens the .seen read-only and checks the queries, singly and in batches.
// Every query of these scripts follows the last add and remove, so the final file answers
// them all.
func checkCountingRead(t *testing.T, file string) {
	v := readScriptVector(t, file)
	f, err := OpenCounting(strings.TrimSuffix(file, ".vec")+".seen", true)
	must(t, err)
	defer f.Close()
	if p := f.Params(); p.Seed != v.seed || p.ExpectedItems != v.expectedItems || p.TargetFPR != v.fpr || !p.ReadOnly {
		t.Errorf("params %+v", p)
	}
	queries := 0
	for _, run := range v.runs() {
		if run[0].op == opQuery {
			countingBatch(t, f, run)
			for _, s := range run {
				countingStep(t, f, s)
			}
			queries += len(run)
		}
	}
	if queries == 0 {
		t.Error("the vector has no queries")
	}
}

// checkScalableBuild replays the adds and queries, one call per step or one batch per run,
// and compares the bytes with the .seen.
func checkScalableBuild(t *testing.T, file string, batched bool) {
	v := readScriptVector(t, file)
	f, err := NewScalable(v.scalable)
	must(t, err)
	defer f.Close()
	replayScript(t, file, v, f, batched, scalableStep, scalableBatch)
}

func scalableStep(t *testing.T, f *ScalableFilter, s scriptStep) {
	t.Helper()
	var err error
	var got bool
	switch {
	case s.op == opAdd && s.isKey:
		err = f.Add(s.key)
	case s.op == opAdd:
		err = f.AddUint64(s.id)
	case s.isKey:
		got = f.Test(s.key)
	default:
		got = f.TestUint64(s.id)
	}
	if err != nil {
		t.Fatalf("%s: %v", s.what(), err)
	}
	if s.op == opQuery && got != s.answer {
		t.Errorf("%s: %v, the vector says %v", s.what(), got, s.answer)
	}
}

func scalableBatch(t *testing.T, f *ScalableFilter, run []scriptStep) {
	t.Helper()
	out := make([]bool, len(run))
	var err error
	switch {
	case run[0].op == opAdd && run[0].isKey:
		err = f.AddKeys(runKeys(run))
	case run[0].op == opAdd:
		err = f.AddUint64s(runIDs(run))
	case run[0].isKey:
		err = f.TestKeys(runKeys(run), out)
	default:
		err = f.TestUint64s(runIDs(run), out)
	}
	if err != nil {
		t.Fatalf("%s: %v", run[0].what(), err)
	}
	if run[0].op == opQuery {
		checkAnswers(t, run, out)
	}
}

// checkScalableRead opens the .seen read-only and checks every query, singly and in batches.
func checkScalableRead(t *testing.T, file string) {
	v := readScriptVector(t, file)
	f, err := OpenScalable(strings.TrimSuffix(file, ".vec")+".seen", true)
	must(t, err)
	defer f.Close()
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
	queries := 0
	for _, run := range v.runs() {
		if run[0].op == opQuery {
			scalableBatch(t, f, run)
			for _, s := range run {
				scalableStep(t, f, s)
			}
			queries += len(run)
		}
	}
	if queries == 0 {
		t.Error("the vector has no queries")
	}
}
