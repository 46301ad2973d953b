package snowfleet

// The arguments vectors: bad input through the Go API, a clear error naming the value and
// the rule, and nothing changed. Cases Go cannot write are skipped (errSkip): the host's
// type errors ("TYPE"), numbers past int64 or of another type, a negative batch size (NextIDs
// takes a slice), an empty layout or node source (a string option's "" means absent in
// Go), and a mode given as text
// other than "strict" or "monotonic" (Mode is a Go type: only Strict and Monotonic are
// written by name).

import (
	"reflect"
	"strconv"

	"github.com/snowfleet/snowfleet/go/internal/lists"
)

const frozenMs = 1737747358021

func argInt(v obj, key string) (*int64, error) {
	a, ok := v[key]
	if !ok {
		return nil, nil
	}
	text, ok := a.(obj)["int"].(string)
	if !ok {
		return nil, errSkip
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return nil, errSkip
	}
	return &n, nil
}

func argText(v obj, key string) (string, bool, error) {
	a, ok := v[key]
	if !ok {
		return "", false, nil
	}
	text, ok := a.(obj)["text"].(string)
	if !ok {
		return "", false, errSkip
	}
	return text, true, nil
}

func argFloat(v obj, key string) (*float64, error) {
	a, ok := v[key]
	if !ok {
		return nil, nil
	}
	if f, ok := a.(obj)["float"]; ok {
		return Float64(f64(f)), nil
	}
	n, err := argInt(v, key)
	if n == nil {
		return nil, err
	}
	return Float64(float64(*n)), nil
}

// generatorOptions builds Options from a case's arguments.
func generatorOptions(args obj) (Options, error) {
	var o Options
	var err error
	for _, f := range []struct {
		key string
		out **int64
	}{{"node_id", &o.NodeID}, {"datacenter_id", &o.DatacenterID}, {"machine_id", &o.MachineID}, {"max_drift_ms", &o.MaxDriftMs}} {
		if *f.out, err = argInt(args, f.key); err != nil {
			return o, err
		}
	}
	if o.MaxWaitMs, err = argFloat(args, "max_wait_ms"); err != nil {
		return o, err
	}
	for _, f := range []struct {
		key string
		out *string
	}{{"layout", &o.Layout}, {"node_source", &o.NodeSource}} {
		text, given, err := argText(args, f.key)
		if err != nil || (given && text == "") {
			return o, errSkip // "" is Go's absent text: a given empty one cannot be written
		}
		*f.out = text
	}
	mode, given, err := argText(args, "mode")
	switch {
	case err != nil:
		return o, err
	case given && mode == "monotonic":
		o.Mode = Monotonic
	case given && mode != "strict":
		return o, errSkip
	}
	return o, nil
}

func runArgument(c *checker, v obj) error {
	op := v["op"].(string)
	args := v["args"].(obj)
	expect := v["expect"].(obj)
	if expect["error"] == "TYPE" {
		return errSkip
	}
	for key := range args {
		known := false
		for _, name := range []string{"layout", "node_id", "datacenter_id", "machine_id", "node_source", "mode",
			"max_wait_ms", "max_drift_ms", "n", "id", "timestamp_ms", "sequence", "epoch_ms", "timestamp_bits",
			"node_bits", "datacenter_bits", "machine_bits", "sequence_bits", "record"} {
			known = known || key == name
		}
		c.check(known, "argument %q is not one this runner knows", key)
	}
	clock := FrozenClock(frozenMs)
	switch op {
	case "generator":
		o, err := generatorOptions(args)
		if err != nil {
			return err
		}
		o.Clock = clock
		g, err := New(o)
		if c.outcome(expect, err) {
			defer g.Close()
			info, err := g.Info()
			c.check(err == nil, "info: %v", err)
			c.eq(info.NodeID, expect["node_id"], "node_id")
			c.eq(info.Layout, expect["layout"], "layout")
			c.eq(info.Mode.String(), expect["mode"], "mode")
			c.eq(info.MaxWaitMs, expect["max_wait_ms"], "max_wait_ms")
			c.eq(info.MaxDriftMs, expect["max_drift_ms"], "max_drift_ms")
		}
	case "next_ids", "next_id", "status", "close":
		return runOnGenerator(c, op, v, clock)
	case "decode":
		l := Layout{Text: args["layout"].(obj)["text"].(string)}
		var d Decoded
		var err error
		if text, ok, _ := argText(args, "id"); ok {
			d, err = l.DecodeText(text)
		} else if id, errInt := argInt(args, "id"); errInt != nil {
			return errInt
		} else {
			d, err = l.Decode(*id)
		}
		if c.outcome(expect, err) {
			c.subset(expect, decodedObj(d))
		}
	case "compose":
		var p Parts
		ts, err := argInt(args, "timestamp_ms")
		if err != nil {
			return err
		}
		if ts != nil {
			p.TimestampMs = *ts
		}
		for _, f := range []struct {
			key string
			out **int64
		}{{"sequence", &p.Sequence}, {"node_id", &p.NodeID}, {"datacenter_id", &p.DatacenterID}, {"machine_id", &p.MachineID}} {
			if *f.out, err = argInt(args, f.key); err != nil {
				return err
			}
		}
		id, err := Layout{Text: args["layout"].(obj)["text"].(string)}.Compose(p)
		if c.outcome(expect, err) {
			c.eq(str(id), expect["id"], "id")
		}
	case "layout_create":
		var a LayoutArgs
		var err error
		for _, f := range []struct {
			key string
			out **int64
		}{{"epoch_ms", &a.EpochMs}, {"timestamp_bits", &a.TimestampBits}, {"node_bits", &a.NodeBits},
			{"datacenter_bits", &a.DatacenterBits}, {"machine_bits", &a.MachineBits}, {"sequence_bits", &a.SequenceBits}} {
			if *f.out, err = argInt(args, f.key); err != nil {
				return err
			}
		}
		l, err := NewLayout(a)
		if c.outcome(expect, err) {
			c.eq(l.Text, expect["text"], "text")
		}
	case "fields":
		runFields(c, args["record"].(obj)["text"].(string), expect)
	default:
		c.check(false, "unknown op %s", op)
	}
	return nil
}

// runOnGenerator: a call on a generator that already issued an id; a refused call issues
// nothing and the generator goes on.
func runOnGenerator(c *checker, op string, v obj, clock *ScriptedClock) error {
	args, expect := v["args"].(obj), v["expect"].(obj)
	n, err := argInt(args, "n")
	if err != nil {
		return err
	}
	if n != nil && *n < 0 {
		return errSkip // a Go slice has no negative length
	}
	g, err := New(Options{NodeID: Int64(9), Clock: clock})
	if err != nil {
		return err
	}
	defer g.Close()
	before, err := g.NextID()
	c.check(err == nil, "first id: %v", err)
	if closed, _ := v["closed"].(bool); closed {
		g.Close()
	}
	st, _ := g.Stats()
	issued := st.IDsIssued
	switch op {
	case "status":
		s, err := g.Status()
		c.check(err == nil, "status: %v", err)
		c.eq(s.Healthy, expect["healthy"], "healthy")
		c.eq(s.Reason, expect["reason"], "reason")
		return nil
	case "close":
		c.check(g.Close() == nil, "close")
		c.check(g.Closed(), "closed")
		return nil
	}
	var ids []int64
	if op == "next_id" {
		var id int64
		if id, err = g.NextID(); err == nil {
			c.check(id > before, "next_id continues")
		}
	} else {
		ids = make([]int64, *n) // 16,777,217 (past the limit) is 128 MiB: Go can ask for it
		err = g.NextIDs(ids)
	}
	if c.outcome(expect, err) {
		if op == "next_ids" {
			c.eq(len(ids), expect["count"], "count")
			for _, id := range ids {
				c.check(id > before, "batch continues")
			}
		}
	} else if !g.Closed() {
		st, _ = g.Stats()
		c.check(st.IDsIssued == issued, "nothing issued by a refused call")
		after, err := g.NextID()
		c.check(err == nil && after > before, "the generator continues after a refused call")
	}
	return nil
}

// runFields: Go's records are expanded from the lists in their order (the vectors pin it).
func runFields(c *checker, record string, expect obj) {
	// A UUIDv7 generator's Stats and Status are the same Go types as a Generator's.
	types := map[string]reflect.Type{"stats": reflect.TypeOf(Stats{}), "status": reflect.TypeOf(Status{}),
		"uuid7_stats": reflect.TypeOf(Stats{}), "uuid7_status": reflect.TypeOf(Status{}),
		"layout": reflect.TypeOf(LayoutFields{}), "generator_args": reflect.TypeOf(Options{})}
	typ, ok := types[record]
	if !ok {
		c.check(false, "fields: unknown record %q", record)
		return
	}
	want := expect["names"].([]any)
	c.eq(typ.NumField(), len(want), record+" field count")
	for i := 0; i < typ.NumField() && i < len(want); i++ {
		c.eq(typ.Field(i).Name, lists.GoName(want[i].(string)), record+" field "+strconv.Itoa(i))
	}
}
