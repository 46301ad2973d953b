// Package snowfleet mints Snowflake-style 64-bit ids and UUIDv7s with the snowfleet core,
// through its C interface (libsnowfleet.so.0): the same rewind guard, leases and marks as the
// Python, Node and Java packages, so a Go process joins the same fleet, leasing node ids from
// the same "local:" registry or etcd prefix.
//
// A Generator is safe for concurrent use by any number of goroutines. Errors are *Error
// values whose Kind matches the sentinels (errors.Is(err, ErrClockMovedBackwards)).
//
// Fork: a Go program does not fork without exec (syscall.ForkExec, os/exec start a new
// program), so a generator never finds itself in a forked child here; the core's fork rules
// (docs/c.md) apply to programs that do.
package snowfleet

//go:generate go run ./internal/listgen

/*
#include <stdlib.h>
#include "snowfleet.h"
*/
import "C"

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Kind is an error kind of the core, the C interface's result code (1 .. 8).
type Kind int32

// String is the kind's stable code, as in the conformance vectors: "CLOCK_MOVED_BACKWARDS".
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindTexts) {
		return kindTexts[k].code
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Name is the kind's class name in the other languages' bindings: "ClockMovedBackwards".
func (k Kind) Name() string {
	if k >= 0 && int(k) < len(kindTexts) {
		return kindTexts[k].name
	}
	return k.String()
}

// Category is the kind's family: "argument", "range", "clock", "state", "unavailable" or
// "internal".
func (k Kind) Category() string {
	if k >= 0 && int(k) < len(kindTexts) {
		return kindTexts[k].category
	}
	return ""
}

// Error makes a Kind the sentinel error of its kind: it says what the kind means.
func (k Kind) Error() string {
	if k > 0 && int(k) < len(kindTexts) {
		return "snowfleet: " + kindTexts[k].code + ": " + kindTexts[k].summary
	}
	return "snowfleet: " + k.String()
}

// Error is what a failed call returns: its kind, and the core's message naming the value and
// the rule. errors.Is(err, ErrLeaseLost) tests the kind; errors.As(err, &e) gives the rest.
type Error struct {
	// Kind is the error kind; Unwrap returns it, so errors.Is matches the kind's sentinel.
	Kind Kind
	// Message names the value and the rule, in the core's words.
	Message string
	// DriftMs is how far ahead of the wall clock a refused monotonic call ran (0 otherwise).
	DriftMs int64
}

// Error returns the message with the kind's code.
func (e *Error) Error() string { return "snowfleet: " + e.Kind.String() + ": " + e.Message }

// Unwrap returns the kind, the sentinel errors.Is compares against.
func (e *Error) Unwrap() error { return e.Kind }

func errorOf(err *C.snowfleet_error) error {
	return &Error{Kind: Kind(err.result), Message: C.GoString(&err.message[0]), DriftMs: int64(err.drift_ms)}
}

// Mode is a generator's mode.
type Mode int32

const (
	// Strict (the default) never issues an id ahead of the wall clock: a millisecond whose
	// sequence ran out waits for the next.
	Strict Mode = 0
	// Monotonic lets ids run ahead of the wall clock, up to MaxDriftMs, instead of waiting.
	Monotonic Mode = 1
)

// String is the mode's name: "strict" or "monotonic".
func (m Mode) String() string {
	switch m {
	case Strict:
		return "strict"
	case Monotonic:
		return "monotonic"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// LeaseState is the state of a generator's node-id lease.
type LeaseState int32

// The lease states.
const (
	LeaseNone        LeaseState = 0 // the node id is not leased
	LeaseHeld        LeaseState = 1 // held and confirmed
	LeaseUnconfirmed LeaseState = 2 // etcd: past the local deadline without a keepalive
	LeaseLost        LeaseState = 3 // lost: minting stops
	LeaseReleased    LeaseState = 4 // released at Close
)

// String is the state's name: "none", "held", "unconfirmed", "lost" or "released".
func (s LeaseState) String() string {
	names := [...]string{"none", "held", "unconfirmed", "lost", "released"}
	if s >= 0 && int(s) < len(names) {
		return names[s]
	}
	return "LeaseState(" + strconv.Itoa(int(s)) + ")"
}

// Int64 returns a pointer to v, for the optional numbers of Options and the argument structs.
func Int64(v int64) *int64 { return &v }

// Float64 returns a pointer to v, for Options.MaxWaitMs.
func Float64(v float64) *float64 { return &v }

// Version is the version of the loaded core library ("0.1.0").
func Version() string { return C.GoString(C.snowfleet_version()) }

// cTexts are C copies of Go strings for a call's NUL-terminated arguments.
type cTexts []*C.char

// add copies s for the C call; a NUL byte inside cannot be passed as C text and is refused.
func (t *cTexts) add(name, s string) (*C.char, error) {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return nil, &Error{Kind: KindInvalidArgument,
			Message: name + " " + quoteShort(s) + " has a NUL byte at position " + strconv.Itoa(i)}
	}
	c := C.CString(s)
	*t = append(*t, c)
	return c, nil
}

// quoteShort quotes at most the first 60 bytes of s, whole characters only, with "..." when
// more follow: the core quotes values in its messages the same way.
func quoteShort(s string) string {
	const max = 60
	if len(s) <= max {
		return strconv.Quote(s)
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strconv.Quote(s[:n]) + "..."
}

func (t *cTexts) free() {
	for _, c := range *t {
		C.free(unsafe.Pointer(c))
	}
	*t = nil
}

// textArg passes a Go string as (text, len) without a copy (the C side does not keep it).
func textArg(s string) (*C.char, C.size_t) {
	if len(s) == 0 {
		return emptyText, 0
	}
	return (*C.char)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

var emptyText = C.CString("")

// libraryCode is the loaded library's code for a result ("" outside its list): the tests
// check the generated kinds against it.
func libraryCode(k Kind) string {
	p := C.snowfleet_result_code(C.snowfleet_result(k))
	if p == nil {
		return ""
	}
	return C.GoString(p)
}
