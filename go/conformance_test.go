package snowfleet

// Every case of conformance/vectors/*.json through the Go package, as the C, C++, Python,
// Node, Java and SQL runners run them. Go is statically typed: an argument case expecting the
// host's type error ("TYPE"), or a value of a type the parameter cannot hold (a float or
// text for an integer, an integer past int64), cannot be written in Go and is skipped, as in
// the C and C++ runners.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const vectorsDir = "../conformance/vectors"

type obj = map[string]any

// errSkip marks a case Go cannot express.
var errSkip = errors.New("not expressible in Go")

// checker collects a case's failed checks.
type checker struct {
	failures     []string
	skippedSteps int // steps Go cannot write (a negative batch size)
}

func (c *checker) check(ok bool, format string, args ...any) {
	if !ok {
		c.failures = append(c.failures, fmt.Sprintf(format, args...))
	}
}

// same compares a value against a vector's: numbers by value (5 == 5.0), the rest as JSON.
func same(got, want any) bool {
	if n, ok := want.(json.Number); ok {
		w, okw := new(big.Float).SetString(n.String())
		g, okg := new(big.Float).SetString(fmt.Sprint(got))
		return okw && okg && w.Cmp(g) == 0
	}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	return bytes.Equal(gj, wj)
}

func (c *checker) eq(got, want any, what string) {
	c.check(same(got, want), "%s: got %v, expected %v", what, got, want)
}

func (c *checker) subset(expect obj, actual obj) {
	for k, want := range expect {
		got, ok := actual[k]
		if !ok {
			c.check(false, "no key %s", k)
			continue
		}
		c.eq(got, want, k)
	}
}

// outcome checks a call's error against expect: true when it succeeded and none was expected.
func (c *checker) outcome(expect obj, err error) bool {
	wantErr, wantsErr := expect["error"]
	if !wantsErr {
		c.check(err == nil, "unexpected error %v", err)
		return err == nil
	}
	if err == nil {
		c.check(false, "expected error %v but the call succeeded", wantErr)
		return false
	}
	var e *Error
	if !errors.As(err, &e) {
		c.check(false, "error %v is not an *Error", err)
		return false
	}
	c.eq(e.Kind.String(), wantErr, "error")
	c.check(errors.Is(err, e.Kind), "errors.Is(err, its kind)")
	if d, ok := expect["drift_ms"]; ok {
		c.eq(e.DriftMs, d, "drift_ms")
	}
	if parts, ok := expect["message_contains"].([]any); ok {
		for _, p := range parts {
			c.check(strings.Contains(e.Message, p.(string)), "message %q lacks %q", e.Message, p)
		}
	}
	return false
}

func i64(v any) int64 {
	switch x := v.(type) {
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			panic(fmt.Sprintf("not an int64: %q", x))
		}
		return n
	case json.Number:
		n, err := x.Int64()
		if err != nil {
			panic(fmt.Sprintf("not an int64: %v", x))
		}
		return n
	}
	panic(fmt.Sprintf("not a number: %#v", v))
}

func f64(v any) float64 {
	f, err := v.(json.Number).Float64()
	if err != nil {
		panic(err)
	}
	return f
}

func str(v int64) string { return strconv.FormatInt(v, 10) }

func layoutOf(text any) Layout { return Layout{Text: text.(string)} }

func describe(l Layout) obj {
	return obj{"text": l.Text, "preset": l.Preset, "epoch_ms": str(l.EpochMs),
		"timestamp_bits": l.TimestampBits, "node_bits": l.NodeBits, "datacenter_bits": l.DatacenterBits,
		"machine_bits": l.MachineBits, "sequence_bits": l.SequenceBits, "timestamp_shift": l.TimestampShift,
		"node_shift": l.NodeShift, "max_node_id": l.MaxNodeID, "max_datacenter_id": l.MaxDatacenterID,
		"max_machine_id": l.MaxMachineID, "max_sequence": l.MaxSequence, "max_elapsed_ms": str(l.MaxElapsedMs),
		"max_timestamp_ms": str(l.MaxTimestampMs)}
}

func decodedObj(d Decoded) obj {
	return obj{"timestamp_ms": str(d.TimestampMs), "node_id": d.NodeID, "datacenter_id": d.DatacenterID,
		"machine_id": d.MachineID, "sequence": d.Sequence}
}

// ---- layout, codec, time, text, range ------------------------------------------------------

func runLayout(c *checker, v obj) error {
	expect := v["expect"].(obj)
	var l Layout
	var err error
	if v["op"] == "parse" {
		l, err = ParseLayout(v["text"].(string))
	} else {
		a := LayoutArgs{EpochMs: Int64(i64(v["epoch_ms"])), TimestampBits: Int64(i64(v["timestamp_bits"])),
			SequenceBits: Int64(i64(v["sequence_bits"]))}
		if _, split := v["datacenter_bits"]; split {
			a.DatacenterBits, a.MachineBits = Int64(i64(v["datacenter_bits"])), Int64(i64(v["machine_bits"]))
		} else {
			a.NodeBits = Int64(i64(v["node_bits"]))
		}
		l, err = NewLayout(a)
	}
	if !c.outcome(expect, err) {
		return nil
	}
	c.subset(expect, describe(l))
	again, err := ParseLayout(l.Text)
	c.check(err == nil && again == l, "the text form round-trips")
	return nil
}

func runCodec(c *checker, v obj) error {
	expect := v["expect"].(obj)
	switch v["op"] {
	case "parse_id":
		id, err := ParseID(v["text"].(string), DecimalFormat)
		if c.outcome(expect, err) {
			c.eq(str(id), expect["id"], "id")
		}
		return nil
	case "compose":
		p := Parts{TimestampMs: i64(v["timestamp_ms"]), Sequence: Int64(i64(v["sequence"]))}
		if _, split := v["datacenter_id"]; split {
			p.DatacenterID, p.MachineID = Int64(i64(v["datacenter_id"])), Int64(i64(v["machine_id"]))
		} else {
			p.NodeID = Int64(i64(v["node_id"]))
		}
		id, err := layoutOf(v["layout"]).Compose(p)
		if c.outcome(expect, err) {
			c.eq(str(id), expect["id"], "id")
		}
		return nil
	}
	value, err := strconv.ParseInt(v["value"].(string), 10, 64)
	if err != nil {
		return errSkip // past int64: no int64 argument holds it
	}
	d, err := layoutOf(v["layout"]).Decode(value)
	if c.outcome(expect, err) {
		c.subset(expect, decodedObj(d))
	}
	return nil
}

func runTime(c *checker, v obj) error {
	expect := v["expect"].(obj)
	ms, err := ParseTime(v["text"].(string))
	if !c.outcome(expect, err) {
		return nil
	}
	c.eq(str(ms), expect["timestamp_ms"], "timestamp_ms")
	if ms >= -62167219200000 && ms <= 253402300799999 { // years 0000-9999: the text reads back
		text, err := FormatTime(ms)
		back, err2 := ParseTime(text)
		c.check(err == nil && err2 == nil && back == ms, "format_time reads back")
	}
	return nil
}

func formatNamed(name any) Format {
	switch name {
	case "base32":
		return Base32Format
	case "base62":
		return Base62Format
	case "any":
		return AnyFormat
	}
	return DecimalFormat
}

func runText(c *checker, v obj) error {
	expect := v["expect"].(obj)
	f := formatNamed(v["encoding"])
	if v["op"] == "parse" {
		id, err := ParseID(v["text"].(string), f)
		if c.outcome(expect, err) {
			c.eq(str(id), expect["id"], "id")
		}
		return nil
	}
	value := i64(v["value"])
	text, err := FormatID(value, f)
	if !c.outcome(expect, err) {
		return nil
	}
	c.eq(text, expect["text"], "text")
	if v["op"] == "round_trip" {
		back, err := ParseID(text, f)
		c.check(err == nil && back == value, "round trip")
	}
	return nil
}

func runRange(c *checker, v obj) error {
	expect := v["expect"].(obj)
	l := layoutOf(v["layout"])
	if v["op"] == "id_range" {
		var slack int64
		if s, ok := v["slack_ms"]; ok {
			slack = i64(s)
		}
		first, last, err := l.IDRange(i64(v["start_ms"]), i64(v["end_ms"]), slack)
		if c.outcome(expect, err) {
			c.eq(str(first), expect["first"], "first")
			c.eq(str(last), expect["last"], "last")
		}
		return nil
	}
	ms := i64(v["timestamp_ms"])
	var id int64
	var err error
	if v["op"] == "min_id" {
		id, err = l.MinID(ms)
	} else {
		id, err = l.MaxID(ms)
	}
	if c.outcome(expect, err) {
		c.eq(str(id), expect["id"], "id")
	}
	return nil
}

// ---- scenarios -----------------------------------------------------------------------------

func segments(script any) []ClockSegment {
	var out []ClockSegment
	for _, s := range script.([]any) {
		m := s.(obj)
		seg := ClockSegment{Ms: i64(m["ms"]), Count: 1, Every: 1}
		if v, ok := m["count"]; ok {
			seg.Count = i64(v)
		}
		if v, ok := m["step_ms"]; ok {
			seg.StepMs = i64(v)
		}
		if v, ok := m["every"]; ok {
			seg.Every = i64(v)
		}
		out = append(out, seg)
	}
	return out
}

type live struct {
	clock       *ScriptedClock
	gen         *Generator
	maxSequence int64
}

func summarize(ids []int64, maxSequence int64) obj {
	out := obj{"count": len(ids)}
	increasing := true
	var sum uint64
	var maxSeq int64
	for i, id := range ids {
		if i > 0 && id <= ids[i-1] {
			increasing = false
		}
		sum += uint64(id)
		maxSeq = max(maxSeq, id&maxSequence)
	}
	out["strictly_increasing"] = increasing
	out["sum"] = strconv.FormatUint(sum, 10)
	if len(ids) > 0 {
		out["first"], out["last"], out["max_sequence"] = str(ids[0]), str(ids[len(ids)-1]), maxSeq
	}
	return out
}

// modeNamed is the Mode of a vector's mode name; another name is a Mode outside the two,
// which the core refuses as the name would be.
func modeNamed(name any) Mode {
	switch name {
	case "monotonic":
		return Monotonic
	case "strict":
		return Strict
	}
	return Mode(99)
}

func runScenario(c *checker, v obj) error {
	gens := map[string]*live{}
	deferred := map[string]obj{}
	first := ""
	open := func(g obj, expect obj) {
		l := &live{}
		gens[g["name"].(string)] = l // kept for its clock even when refused
		if of, ok := g["clock_of"]; ok {
			l.clock = gens[of.(string)].clock
		} else {
			clock, err := NewScriptedClock(segments(g["clock"])...)
			if err != nil {
				c.outcome(expect, err)
				return
			}
			l.clock = clock
		}
		if layout, err := ParseLayout(g["layout"].(string)); err == nil {
			l.maxSequence = layout.MaxSequence
		}
		gen, err := New(Options{Layout: g["layout"].(string), NodeID: Int64(i64(g["node_id"])),
			Mode: modeNamed(g["mode"]), MaxWaitMs: Float64(f64(g["max_wait_ms"])),
			MaxDriftMs: Int64(i64(g["max_drift_ms"])), Clock: l.clock})
		if c.outcome(expect, err) {
			l.gen = gen
		}
	}
	for _, g := range v["generators"].([]any) {
		g := g.(obj)
		name := g["name"].(string)
		if first == "" {
			first = name
		}
		if d, _ := g["deferred"].(bool); d {
			deferred[name] = g
			continue
		}
		expect, _ := g["expect_construct_error"].(obj)
		open(g, expect)
	}
	defer func() {
		for _, l := range gens {
			if l.gen != nil {
				l.gen.Close()
			}
		}
	}()
	for i, s := range v["steps"].([]any) {
		step := s.(obj)
		at := len(c.failures)
		name := first
		if n, ok := step["gen"]; ok {
			name = n.(string)
		}
		expect := step["expect"].(obj)
		op := step["op"].(string)
		if op == "open" {
			open(deferred[name], expect)
		} else {
			runStep(c, gens[name], op, step, expect)
		}
		for j := at; j < len(c.failures); j++ {
			c.failures[j] = fmt.Sprintf("step %d (%s): %s", i, op, c.failures[j])
		}
	}
	return nil
}

func runStep(c *checker, l *live, op string, step, expect obj) {
	g := l.gen
	switch op {
	case "next_id":
		repeat := int64(1)
		if r, ok := step["repeat"]; ok {
			repeat = i64(r)
		}
		if repeat == 1 {
			id, err := g.NextID()
			if c.outcome(expect, err) {
				c.eq(str(id), expect["id"], "id")
			}
			return
		}
		ids := make([]int64, repeat)
		for i := range ids {
			var err error
			ids[i], err = g.NextID()
			c.check(err == nil, "next_id: %v", err)
		}
		c.subset(expect, summarize(ids, l.maxSequence))
	case "next_ids":
		n := i64(step["n"])
		if n < 0 {
			c.skippedSteps++ // a Go slice has no negative length
			return
		}
		ids := make([]int64, n)
		if c.outcome(expect, g.NextIDs(ids)) {
			c.subset(expect, summarize(ids, l.maxSequence))
		}
	case "stats":
		st, err := g.Stats()
		c.check(err == nil, "stats: %v", err)
		c.subset(expect, obj{"ids_issued": st.IDsIssued, "rewinds_seen": st.RewindsSeen, "waits": st.Waits,
			"waited_ns_total": strconv.FormatUint(st.WaitedNsTotal, 10),
			"waited_ns_max":   strconv.FormatUint(st.WaitedNsMax, 10),
			"refusals":        st.Refusals, "ms_borrowed": st.MsBorrowed})
	case "status":
		st, err := g.Status()
		c.check(err == nil, "status: %v", err)
		c.subset(expect, obj{"healthy": st.Healthy, "wall_ms": str(st.WallMs), "last_ms": str(st.LastMs),
			"drift_ms": st.DriftMs, "node_id": st.NodeID})
		c.check(st.Healthy == (st.Reason == ""), "healthy == reason empty")
	case "drift":
		d, err := g.DriftMs()
		c.check(err == nil, "drift: %v", err)
		c.subset(expect, obj{"drift_ms": d})
	case "close":
		c.check(g.Close() == nil, "close")
	case "clock":
		k, err := l.clock.Counters()
		c.check(err == nil, "clock: %v", err)
		c.subset(expect, obj{"reads": k.Reads, "sleep_count": k.SleepCount, "slept_ns": str(k.SleptNs),
			"max_sleep_ns": str(k.MaxSleepNs), "min_sleep_ns": str(k.MinSleepNs)})
	default:
		c.check(false, "unknown op %s", op)
	}
}

// ---- uuid7 ---------------------------------------------------------------------------------

func runUUID7(c *checker, v obj) error {
	if v["op"] == "decode" {
		expect := v["expect"].(obj)
		u, err := ParseUUID(v["text"].(string))
		var f UUID7Fields
		if err == nil {
			f, err = u.Fields()
		}
		if !c.outcome(expect, err) {
			return nil
		}
		c.eq(u.String(), expect["canonical"], "canonical")
		c.eq(str(f.TimestampMs), expect["timestamp_ms"], "timestamp_ms")
		c.eq(f.Counter, expect["counter"], "counter")
		c.eq(str(f.Random), expect["random"], "random")
		return nil
	}
	seed := uint64(i64(v["seed"]))
	clock, err := NewScriptedClock(segments(v["clock"])...)
	if err != nil {
		return err
	}
	g, err := NewUUID7(UUID7Options{Mode: modeNamed(v["mode"]), MaxWaitMs: Float64(f64(v["max_wait_ms"])),
		RandomSeed: &seed, Clock: clock})
	if err != nil {
		return err
	}
	defer g.Close()
	for _, s := range v["steps"].([]any) {
		step := s.(obj)
		expect := step["expect"].(obj)
		var us []UUID
		if step["op"] == "next" {
			u, err := g.Next()
			if !c.outcome(expect, err) {
				continue
			}
			us = []UUID{u}
		} else {
			us = make([]UUID, max(i64(step["n"]), 0))
			if !c.outcome(expect, g.NextMany(us)) {
				continue
			}
		}
		text := make([]any, len(us))
		for i, u := range us {
			text[i] = u.String()
		}
		if want, ok := expect["uuids"]; ok {
			c.eq(text, want, "uuids")
		} else {
			c.eq(len(text), expect["count"], "count")
			if len(text) > 0 {
				c.eq(text[0], expect["first"], "first")
				c.eq(text[len(text)-1], expect["last"], "last")
			}
		}
	}
	return nil
}

// ---- the files -----------------------------------------------------------------------------

var runners = map[string]struct {
	kind string
	run  func(*checker, obj) error
}{
	"arguments.json": {"arguments", runArgument},
	"codec.json":     {"codec", runCodec},
	"layout.json":    {"layout", runLayout},
	"range.json":     {"range", runRange},
	"scenarios.json": {"scenario", runScenario},
	"text.json":      {"text", runText},
	"time.json":      {"time", runTime},
	"uuid7.json":     {"uuid7", runUUID7},
}

func loadVectors(t *testing.T, name, kind string) []any {
	data, err := os.ReadFile(filepath.Join(vectorsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc obj
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema_version"] != json.Number("1") || doc["kind"] != kind {
		t.Fatalf("%s: unexpected schema_version or kind", name)
	}
	return doc["cases"].([]any)
}

func TestConformance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(vectorsDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors in %s: %v", vectorsDir, err)
	}
	names := []string{}
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	sort.Strings(names)
	for _, name := range names {
		r, ok := runners[name]
		if !ok {
			t.Errorf("%s has no runner here", name)
			continue
		}
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			ran, skipped, skippedSteps := 0, 0, 0
			for _, cs := range loadVectors(t, name, r.kind) {
				v := cs.(obj)
				c := &checker{}
				err := func() (err error) {
					defer func() {
						if p := recover(); p != nil {
							err = fmt.Errorf("runner: %v", p)
						}
					}()
					return r.run(c, v)
				}()
				if errors.Is(err, errSkip) {
					skipped++
					continue
				}
				ran++
				skippedSteps += c.skippedSteps
				if err != nil {
					c.check(false, "%v", err)
				}
				for _, f := range c.failures {
					t.Errorf("%s: %s", v["id"], f)
				}
			}
			t.Logf("%s: %d cases run, %d skipped, %d steps skipped (not expressible in Go)", name, ran, skipped, skippedSteps)
			if ran == 0 {
				t.Errorf("%s: no case ran", name)
			}
		})
	}
}
