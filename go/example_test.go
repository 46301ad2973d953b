package snowfleet_test

import (
	"errors"
	"fmt"
	"log"
	"os"

	snowfleet "github.com/snowfleet/snowfleet/go"
)

// A generator leasing its node id from a local registry, as the Python, Node and Java
// processes of the fleet do.
func Example() {
	dir, _ := os.MkdirTemp("", "snowfleet-example-")
	defer os.RemoveAll(dir)
	gen, err := snowfleet.New(snowfleet.Options{NodeSource: "local:" + dir, Mode: snowfleet.Monotonic})
	if err != nil {
		log.Fatal(err)
	}
	defer gen.Close()
	id, err := gen.NextID()
	if err != nil {
		log.Fatal(err)
	}
	d, _ := snowfleet.Decode(id)
	info, _ := gen.Info()
	fmt.Println(d.NodeID == info.NodeID)
	// Output: true
}

func ExampleNew() {
	gen, err := snowfleet.New(snowfleet.Options{NodeID: snowfleet.Int64(37)})
	if err != nil {
		log.Fatal(err)
	}
	defer gen.Close()
	info, _ := gen.Info()
	fmt.Println(info.NodeID, info.Mode, info.Layout)
	// Output: 37 strict 41.10.12@1704067200000
}

// Bad options are an *Error naming the value and the rule, matching its kind's sentinel.
func ExampleNew_invalid() {
	_, err := snowfleet.New(snowfleet.Options{NodeID: snowfleet.Int64(1024)})
	fmt.Println(errors.Is(err, snowfleet.ErrInvalidArgument))
	var e *snowfleet.Error
	if errors.As(err, &e) {
		fmt.Println(e.Kind.String(), e.Kind.Category())
	}
	// Output:
	// true
	// INVALID_ARGUMENT argument
}

func ExampleGenerator_NextID() {
	clock := snowfleet.FrozenClock(1737747358021)
	gen, _ := snowfleet.New(snowfleet.Options{NodeID: snowfleet.Int64(37), Clock: clock})
	defer gen.Close()
	for i := 0; i < 2; i++ {
		id, err := gen.NextID()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(id)
	}
	// Output:
	// 141264821508263936
	// 141264821508263937
}

func ExampleGenerator_NextIDs() {
	clock := snowfleet.FrozenClock(1737747358021)
	gen, _ := snowfleet.New(snowfleet.Options{NodeID: snowfleet.Int64(37), Clock: clock})
	defer gen.Close()
	ids := make([]int64, 3)
	if err := gen.NextIDs(ids); err != nil {
		log.Fatal(err)
	}
	fmt.Println(ids)
	// Output: [141264821508263936 141264821508263937 141264821508263938]
}

// A rewind longer than MaxWaitMs is refused: nothing is issued.
func ExampleErrClockMovedBackwards() {
	clock := snowfleet.FrozenClock(1737747358021)
	gen, _ := snowfleet.New(snowfleet.Options{NodeID: snowfleet.Int64(1), Clock: clock})
	defer gen.Close()
	gen.NextID()
	clock.AdvanceWallMs(-100)
	_, err := gen.NextID()
	fmt.Println(errors.Is(err, snowfleet.ErrClockMovedBackwards))
	st, _ := gen.Stats()
	fmt.Println(st.IDsIssued, st.Refusals)
	// Output:
	// true
	// 1 1
}

func ExampleGenerator_Status() {
	gen, _ := snowfleet.New(snowfleet.Options{NodeID: snowfleet.Int64(5)})
	s, _ := gen.Status()
	fmt.Println(s.Healthy, s.NodeID, s.LeaseState)
	gen.Close()
	s, _ = gen.Status()
	fmt.Println(s.Healthy, s.Reason)
	// Output:
	// true 5 none
	// false generator is closed
}

func ExampleDecode() {
	d, err := snowfleet.Decode(141264821508263936)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Time(), d.NodeID, d.Sequence)
	// Output: 2025-01-24 19:35:58.021 +0000 UTC 37 0
}

func ExampleCompose() {
	id, _ := snowfleet.Compose(1737747358021, 37, 0)
	fmt.Println(id)
	// Output: 141264821508263936
}

func ExampleParseLayout() {
	l, err := snowfleet.ParseLayout("twitter")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l, l.DatacenterBits, l.MachineBits, l.MaxSequence)
	id, _ := l.Compose(snowfleet.Parts{TimestampMs: 1737747358021, DatacenterID: snowfleet.Int64(3), MachineID: snowfleet.Int64(4)})
	d, _ := l.Decode(id)
	fmt.Println(d.DatacenterID, d.MachineID)
	// Output:
	// 41.5.5.12@1288834974657 5 5 4095
	// 3 4
}

func ExampleNewLayout() {
	l, err := snowfleet.NewLayout(snowfleet.LayoutArgs{EpochMs: snowfleet.Int64(1704067200000),
		TimestampBits: snowfleet.Int64(41), NodeBits: snowfleet.Int64(8), SequenceBits: snowfleet.Int64(14)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.Text, l.MaxNodeID)
	// Output: 41.8.14@1704067200000 255
}

func ExampleLayout_IDRange() {
	first, last, _ := snowfleet.DefaultLayout.IDRange(1737747358021, 1737747358022, 0)
	fmt.Println(first, last)
	// Output: 141264821508112384 141264821512306687
}

func ExampleFormatID() {
	text, _ := snowfleet.FormatID(141264821508263936, snowfleet.Base32Format)
	id, _ := snowfleet.ParseID(text, snowfleet.Base32Format)
	fmt.Println(text, id)
	// Output: 03XEZKD8M4M00 141264821508263936
}

func ExampleFormatTime() {
	text, _ := snowfleet.FormatTime(1737747358021)
	ms, _ := snowfleet.ParseTime("2025-01-24T20:35:58.021+01:00")
	fmt.Println(text, ms)
	// Output: 2025-01-24T19:35:58.021Z 1737747358021
}

func ExampleNewUUID7() {
	gen, err := snowfleet.NewUUID7(snowfleet.UUID7Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer gen.Close()
	a, _ := gen.Next()
	b, _ := gen.Next()
	fmt.Println(len(a.String()), a.String() < b.String())
	// Output: 36 true
}

func ExampleUUID_Fields() {
	u, _ := snowfleet.ParseUUID("019ae182-3c00-7486-9fd0-a2eefb32555e")
	f, _ := u.Fields()
	fmt.Println(u, f.TimestampMs)
	// Output: 019ae182-3c00-7486-9fd0-a2eefb32555e 1764720000000
}

// A scripted clock makes a test's time explicit: here two readings per millisecond.
func ExampleNewScriptedClock() {
	clock, _ := snowfleet.NewScriptedClock(snowfleet.ClockSegment{Ms: 1737747358021, Count: 4, StepMs: 1, Every: 2})
	gen, _ := snowfleet.New(snowfleet.Options{NodeID: snowfleet.Int64(1), Clock: clock})
	defer gen.Close()
	for i := 0; i < 3; i++ {
		id, _ := gen.NextID()
		d, _ := snowfleet.Decode(id)
		fmt.Println(d.TimestampMs, d.Sequence)
	}
	// Output:
	// 1737747358021 0
	// 1737747358021 1
	// 1737747358022 0
}

func ExampleVersion() {
	fmt.Println(snowfleet.Version() != "")
	// Output: true
}
