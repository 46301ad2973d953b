package snowfleet

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestErrorsMatchTheirKind(t *testing.T) {
	_, err := New(Options{NodeID: Int64(1024)})
	if !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("node id 1024: %v, want ErrInvalidArgument", err)
	}
	if errors.Is(err, ErrClockMovedBackwards) {
		t.Fatal("an InvalidArgument error matches ErrClockMovedBackwards")
	}
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindInvalidArgument || !strings.Contains(e.Message, "1024") {
		t.Fatalf("errors.As: %#v", e)
	}
	var k Kind
	if !errors.As(err, &k) || k != KindInvalidArgument || k.Category() != "argument" || k.Name() != "InvalidArgument" {
		t.Fatalf("errors.As(Kind): %v", k)
	}
	if !strings.Contains(err.Error(), "INVALID_ARGUMENT") || !strings.Contains(err.Error(), "1024") {
		t.Fatalf("message: %q", err.Error())
	}
}

func TestRewindRefusedWithItsKindAndNothingIssued(t *testing.T) {
	clock := FrozenClock(1737747358021)
	g, err := New(Options{NodeID: Int64(1), Clock: clock, MaxWaitMs: Float64(0)})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := g.NextID(); err != nil {
		t.Fatal(err)
	}
	if err := clock.AdvanceWallMs(-10); err != nil {
		t.Fatal(err)
	}
	if _, err := g.NextID(); !errors.Is(err, ErrClockMovedBackwards) {
		t.Fatalf("after a 10 ms rewind: %v", err)
	}
	if err := g.NextIDs(make([]int64, 3)); !errors.Is(err, ErrClockMovedBackwards) {
		t.Fatalf("NextIDs after a 10 ms rewind: %v", err)
	}
	st, _ := g.Stats()
	if st.IDsIssued != 1 || st.Refusals != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestClosedGenerator(t *testing.T) {
	g, err := New(Options{NodeID: Int64(2)})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil || !g.Closed() || g.Close() != nil {
		t.Fatal("Close is idempotent")
	}
	if _, err := g.NextID(); !errors.Is(err, ErrGeneratorClosed) {
		t.Fatalf("NextID after Close: %v", err)
	}
	s, _ := g.Status()
	if s.Healthy || s.Reason == "" {
		t.Fatalf("status after Close: %+v", s)
	}
}

func TestTextWithNulIsRefused(t *testing.T) {
	_, err := New(Options{NodeSource: "static:1\x00"})
	if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "node_source") {
		t.Fatalf("NUL in node_source: %v", err)
	}
}

// A long text with a NUL is quoted in part, as the core quotes values: the message stays
// short, valid UTF-8, and names the position.
func TestLongTextWithNulHasAShortMessage(t *testing.T) {
	text := strings.Repeat("é", 1<<19) + "\x00"
	_, err := New(Options{NodeSource: text})
	msg := err.Error()
	if !errors.Is(err, ErrInvalidArgument) || len(msg) > 512 || !utf8.ValidString(msg) ||
		!strings.Contains(msg, "position 1048576") || strings.Contains(msg, `\x`) || !strings.Contains(msg, "...") {
		t.Fatalf("a 1 MiB node_source with a NUL at its end: %d bytes: %.200q", len(msg), msg)
	}
}

func TestKindsHaveTheirTexts(t *testing.T) {
	if KindClockMovedBackwards.String() != "CLOCK_MOVED_BACKWARDS" || KindClockMovedBackwards.Category() != "clock" {
		t.Fatal(KindClockMovedBackwards)
	}
	if Kind(42).String() != "Kind(42)" || Mode(7).String() != "Mode(7)" || LeaseHeld.String() != "held" {
		t.Fatal("names outside the lists")
	}
}

// Every message is valid UTF-8, even one naming a path with other bytes.
func TestMessageNamingAPathThatIsNotUTF8IsUTF8(t *testing.T) {
	_, err := New(Options{NodeSource: "local:/proc/snowfleet-\xff\xfe"})
	if !errors.Is(err, ErrNodeIDUnavailable) || !utf8.ValidString(err.Error()) ||
		!strings.Contains(err.Error(), `/proc/snowfleet-\xff\xfe:`) {
		t.Fatalf("%q", err)
	}
}
