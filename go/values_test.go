package snowfleet

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// collect runs the garbage collector until finalizers of dropped values have run.
func collect() {
	for i := 0; i < 5; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

// A Generator, UUID7Generator or ScriptedClock copied by value keeps working after the
// original is dropped: the C handle lives as long as any copy.
func TestCopiedValuesOutliveTheOriginal(t *testing.T) {
	g, err := New(Options{NodeID: Int64(2)})
	if err != nil {
		t.Fatal(err)
	}
	u, err := NewUUID7(UUID7Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := FrozenClock(1737747358021)
	gc, uc, cc := *g, *u, *c
	g, u, c = nil, nil, nil
	collect()
	if _, err := gc.NextID(); err != nil || gc.Closed() {
		t.Fatalf("a copied Generator after the original was collected: %v, closed %v", err, gc.Closed())
	}
	if _, err := uc.Next(); err != nil {
		t.Fatalf("a copied UUID7Generator after the original was collected: %v", err)
	}
	if err := cc.SetWallMs(1737747358022); err != nil {
		t.Fatalf("a copied ScriptedClock after the original was collected: %v", err)
	}
	if err := gc.Close(); err != nil {
		t.Fatal(err)
	}
}

// Zero values (not made by their constructors) are refused with ErrInvalidArgument naming
// the constructor, never passed on as a NULL handle or replaced by the system clock.
func TestZeroValuesAreRefusedNamingTheirConstructor(t *testing.T) {
	want := func(what string, err error, constructor string) {
		t.Helper()
		if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), constructor) {
			t.Errorf("%s: %v, want ErrInvalidArgument naming %s", what, err, constructor)
		}
	}
	var g Generator
	_, err := g.NextID()
	want("zero Generator NextID", err, "New")
	want("zero Generator NextIDs", g.NextIDs(make([]int64, 2)), "New")
	want("zero Generator Close", g.Close(), "New")
	if g.Closed() {
		t.Error("a zero Generator says it is closed")
	}
	var u UUID7Generator
	_, err = u.Next()
	want("zero UUID7Generator Next", err, "NewUUID7")
	var c ScriptedClock
	want("zero ScriptedClock SetWallMs", c.SetWallMs(1), "NewScriptedClock")
	_, err = New(Options{NodeID: Int64(1), Clock: &ScriptedClock{}})
	want("Options.Clock a zero ScriptedClock", err, "NewScriptedClock")
	_, err = NewUUID7(UUID7Options{Clock: &ScriptedClock{}})
	want("UUID7Options.Clock a zero ScriptedClock", err, "NewScriptedClock")
}

// A Layout built as a struct literal with fields or a preset but no Text is refused, not
// read as the default layout (only the zero Layout is the default).
func TestLayoutWithoutTextIsRefused(t *testing.T) {
	id, err := TwitterLayout.ComposeNode(1737747358021, 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []Layout{{LayoutFields: TwitterLayout.LayoutFields}, {Preset: "twitter"}} {
		if d, err := l.Decode(id); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "ParseLayout") {
			t.Errorf("%+v.Decode: %+v, %v; want ErrInvalidArgument naming ParseLayout", l, d, err)
		}
	}
	if _, err := (Layout{}).Decode(id); err != nil {
		t.Errorf("the zero Layout (the default layout): %v", err)
	}
}
