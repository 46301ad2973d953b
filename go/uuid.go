package snowfleet

/*
#cgo noescape snowfleet_uuid7_next_many
#cgo nocallback snowfleet_uuid7_next_many
#cgo noescape snowfleet_uuid_format
#cgo nocallback snowfleet_uuid_format
#include <stdlib.h>
#include "snowfleet.h"

// One UUID without a Go pointer crossing (as sf_next_id).
typedef struct { uint8_t bytes[16]; snowfleet_error* err; } sf_uuid7_result;
static sf_uuid7_result sf_uuid7_next(snowfleet_uuid7_generator* gen) {
  sf_uuid7_result r;
  snowfleet_error err;
  r.err = NULL;
  if (snowfleet_uuid7_next(gen, r.bytes, &err) != SNOWFLEET_OK) {
    r.err = (snowfleet_error*)malloc(sizeof err);
    if (r.err) *r.err = err;
  }
  return r;
}
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// UUID is a UUID's 16 bytes, in network order.
type UUID [16]byte

// String is the canonical text: "01946b3c-9d45-7a3e-8b21-0c4f5e6d7a8b".
func (u UUID) String() string {
	var buf [C.SNOWFLEET_UUID_TEXT_MAX]C.char
	C.snowfleet_uuid_format((*C.uint8_t)(unsafe.Pointer(&u[0])), &buf[0], C.size_t(len(buf)), nil)
	return C.GoString(&buf[0])
}

// MarshalText writes the canonical text (encoding.TextMarshaler: JSON strings).
func (u UUID) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText reads the text ParseUUID reads.
func (u *UUID) UnmarshalText(text []byte) error {
	v, err := ParseUUID(string(text))
	if err != nil {
		return err
	}
	*u = v
	return nil
}

// ParseUUID reads a UUID's canonical text, in either case, or its 32 hex digits.
func ParseUUID(text string) (UUID, error) {
	var u UUID
	var e C.snowfleet_error
	p, n := textArg(text)
	if C.snowfleet_uuid_parse(p, n, (*C.uint8_t)(unsafe.Pointer(&u[0])), &e) != C.SNOWFLEET_OK {
		return UUID{}, errorOf(&e)
	}
	return u, nil
}

// UUID7Fields are the fields of a UUIDv7.
type UUID7Fields struct {
	TimestampMs int64 // Unix ms, 48 bits
	Counter     int64 // 26 bits
	Random      int64 // the 48 random bits below it
}

// Fields decodes a UUIDv7; another version is an error of KindInvalidArgument.
func (u UUID) Fields() (UUID7Fields, error) {
	var f C.snowfleet_uuid7_fields
	f.size = C.uint32_t(unsafe.Sizeof(f))
	var e C.snowfleet_error
	if C.snowfleet_uuid7_decode((*C.uint8_t)(unsafe.Pointer(&u[0])), &f, &e) != C.SNOWFLEET_OK {
		return UUID7Fields{}, errorOf(&e)
	}
	return UUID7Fields{TimestampMs: int64(f.timestamp_ms), Counter: int64(f.counter), Random: int64(f.random)}, nil
}

// UUID7Options are a UUIDv7 generator's options, every one optional.
type UUID7Options struct {
	// Mode: Strict (the default) or Monotonic.
	Mode Mode
	// MaxWaitMs: rewinds up to this many ms are waited out (default 5).
	MaxWaitMs *float64
	// MaxDriftMs: monotonic mode, how far ahead of the wall clock UUIDs may run (default 1000).
	MaxDriftMs *int64
	// RandomSeed makes the random bits a fixed sequence (tests only).
	RandomSeed *uint64
	// Clock: a scripted clock for tests (nil: the system clock).
	Clock *ScriptedClock
}

// UUID7Generator mints UUIDv7s, ascending. Safe for concurrent use. Use the
// *UUID7Generator NewUUID7 returns: a zero UUID7Generator refuses every call with
// ErrInvalidArgument.
type UUID7Generator struct {
	h *uuid7Handle
}

// uuid7Handle owns the C handle; the finalizer sits on it, so a copied UUID7Generator value
// keeps it alive.
type uuid7Handle struct {
	c *C.snowfleet_uuid7_generator
}

// handle is the C handle, or an error for a zero UUID7Generator.
func (g *UUID7Generator) handle() (*uuid7Handle, error) {
	if g.h == nil {
		return nil, &Error{Kind: KindInvalidArgument,
			Message: "this UUID7Generator was not created by NewUUID7 (a zero UUID7Generator has no generator behind it)"}
	}
	return g.h, nil
}

// NewUUID7 creates a UUIDv7 generator.
func NewUUID7(o UUID7Options) (*UUID7Generator, error) {
	var co C.snowfleet_uuid7_options
	C.snowfleet_uuid7_options_init(&co)
	var texts cTexts
	defer texts.free()
	var err error
	if co.mode, err = texts.add("mode", o.Mode.String()); err != nil {
		return nil, err
	}
	if o.MaxWaitMs != nil {
		co.max_wait_ms, co.has_max_wait_ms = C.double(*o.MaxWaitMs), 1
	}
	if o.MaxDriftMs != nil {
		co.max_drift_ms, co.has_max_drift_ms = C.int64_t(*o.MaxDriftMs), 1
	}
	if o.RandomSeed != nil {
		co.random_seed, co.has_random_seed = C.uint64_t(*o.RandomSeed), 1
	}
	if o.Clock != nil {
		if co.clock, err = o.Clock.handle(); err != nil {
			return nil, err
		}
	}
	var gen *C.snowfleet_uuid7_generator
	var e C.snowfleet_error
	rc := C.snowfleet_uuid7_new(&co, &gen, &e)
	runtime.KeepAlive(o.Clock)
	if rc != C.SNOWFLEET_OK {
		return nil, errorOf(&e)
	}
	h := &uuid7Handle{c: gen}
	runtime.SetFinalizer(h, func(h *uuid7Handle) { C.snowfleet_uuid7_free(h.c) })
	return &UUID7Generator{h: h}, nil
}

// Next returns the next UUIDv7.
func (g *UUID7Generator) Next() (UUID, error) {
	h, err := g.handle()
	if err != nil {
		return UUID{}, err
	}
	r := C.sf_uuid7_next(h.c)
	runtime.KeepAlive(h)
	if r.err != nil {
		return UUID{}, takeError(r.err)
	}
	return *(*UUID)(unsafe.Pointer(&r.bytes)), nil
}

// NextMany fills dst with len(dst) UUIDv7s, ascending; a refused call writes none.
func (g *UUID7Generator) NextMany(dst []UUID) error {
	h, err := g.handle()
	if err != nil {
		return err
	}
	var e C.snowfleet_error
	rc := C.snowfleet_uuid7_next_many(h.c, (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(dst))), C.int64_t(len(dst)), &e)
	runtime.KeepAlive(h)
	if rc != C.SNOWFLEET_OK {
		return errorOf(&e)
	}
	return nil
}

// Stats returns the generator's counters.
func (g *UUID7Generator) Stats() (Stats, error) {
	h, err := g.handle()
	if err != nil {
		return Stats{}, err
	}
	var c C.snowfleet_stats
	c.size = C.uint32_t(unsafe.Sizeof(c))
	var e C.snowfleet_error
	rc := C.snowfleet_uuid7_stats(h.c, &c, &e)
	runtime.KeepAlive(h)
	if rc != C.SNOWFLEET_OK {
		return Stats{}, errorOf(&e)
	}
	return statsFromC(&c), nil
}

// Status says whether a call now would be served, and why not.
func (g *UUID7Generator) Status() (Status, error) {
	h, err := g.handle()
	if err != nil {
		return Status{}, err
	}
	var c C.snowfleet_status
	c.size = C.uint32_t(unsafe.Sizeof(c))
	var e C.snowfleet_error
	rc := C.snowfleet_uuid7_status(h.c, &c, &e)
	runtime.KeepAlive(h)
	if rc != C.SNOWFLEET_OK {
		return Status{}, errorOf(&e)
	}
	return statusFromC(&c), nil
}

// Close stops minting; later calls return ErrGeneratorClosed. Idempotent.
func (g *UUID7Generator) Close() error {
	h, err := g.handle()
	if err != nil {
		return err
	}
	var e C.snowfleet_error
	rc := C.snowfleet_uuid7_close(h.c, &e)
	runtime.KeepAlive(h)
	if rc != C.SNOWFLEET_OK {
		return errorOf(&e)
	}
	return nil
}
