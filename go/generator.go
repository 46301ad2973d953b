package snowfleet

/*
#cgo noescape snowfleet_generator_next_ids
#cgo nocallback snowfleet_generator_next_ids
#include <stdlib.h>
#include "snowfleet.h"

// One id without a Go pointer crossing: the error stays on the C stack and is copied to
// the C heap only when the call fails (the Go side frees it).
typedef struct { int64_t id; snowfleet_error* err; } sf_next_id_result;
static sf_next_id_result sf_next_id(snowfleet_generator* gen) {
  sf_next_id_result r = {0, NULL};
  snowfleet_error err;
  if (snowfleet_generator_next_id(gen, &r.id, &err) != SNOWFLEET_OK) {
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

// Generator mints ids for one node. Safe for concurrent use; Close it when done (a leased
// node id is released then; one dropped unclosed is released when it is garbage collected).
// Use the *Generator New returns: a zero Generator refuses every call with
// ErrInvalidArgument.
type Generator struct {
	h *generatorHandle
}

// generatorHandle owns the C handle. The finalizer sits on it, not on Generator, so a copy
// of a Generator value keeps the handle alive as long as the original does.
type generatorHandle struct {
	c *C.snowfleet_generator
}

// handle is the C handle, or an error for a zero Generator (no handle to pass as NULL).
func (g *Generator) handle() (*generatorHandle, error) {
	if g.h == nil {
		return nil, &Error{Kind: KindInvalidArgument,
			Message: "this Generator was not created by New (a zero Generator has no generator behind it)"}
	}
	return g.h, nil
}

// New creates a generator. A leased node source ("local:", "etcd://...") claims its node id
// here, which may wait for the store. Bad options return an *Error of KindInvalidArgument
// naming the value and the rule.
func New(o Options) (*Generator, error) {
	var co C.snowfleet_options
	C.snowfleet_options_init(&co)
	var texts cTexts
	defer texts.free()
	if err := o.fill(&co, &texts); err != nil {
		return nil, err
	}
	var gen *C.snowfleet_generator
	var e C.snowfleet_error
	rc := C.snowfleet_generator_new(&co, &gen, &e)
	runtime.KeepAlive(o.Clock)
	if rc != C.SNOWFLEET_OK {
		return nil, errorOf(&e)
	}
	h := &generatorHandle{c: gen}
	runtime.SetFinalizer(h, func(h *generatorHandle) { C.snowfleet_generator_free(h.c) })
	return &Generator{h: h}, nil
}

// NextID returns the next id. In strict mode a rewind longer than MaxWaitMs returns
// ErrClockMovedBackwards; in monotonic mode running MaxDriftMs ahead of the wall clock does
// (with Error.DriftMs). Nothing is issued by a refused call.
func (g *Generator) NextID() (int64, error) {
	h, err := g.handle()
	if err != nil {
		return 0, err
	}
	r := C.sf_next_id(h.c)
	runtime.KeepAlive(h)
	if r.err != nil {
		return 0, takeError(r.err)
	}
	return int64(r.id), nil
}

// takeError converts an error the C side copied to its heap, and frees it.
func takeError(e *C.snowfleet_error) error {
	defer C.free(unsafe.Pointer(e))
	return errorOf(e)
}

// NextIDs fills dst with len(dst) ids, ascending (at most 16,777,216 at a time). If it fails
// part-way, dst holds no id of the caller's: the ids written were never issued to anyone.
func (g *Generator) NextIDs(dst []int64) error {
	h, err := g.handle()
	if err != nil {
		return err
	}
	var e C.snowfleet_error
	rc := C.snowfleet_generator_next_ids(h.c, (*C.int64_t)(unsafe.Pointer(unsafe.SliceData(dst))), C.int64_t(len(dst)), &e)
	runtime.KeepAlive(h)
	if rc != C.SNOWFLEET_OK {
		return errorOf(&e)
	}
	return nil
}

// Info are a generator's settings.
type Info struct {
	Layout     string  // the layout's text form
	NodeID     int64   // the node id in every id
	Mode       Mode    // Strict or Monotonic
	MaxWaitMs  float64 // rewinds up to this many ms are waited out
	MaxDriftMs int64   // monotonic mode: how far ahead of the wall clock ids may run
}

// Info returns the generator's settings, its node id among them.
func (g *Generator) Info() (Info, error) {
	h, err := g.handle()
	if err != nil {
		return Info{}, err
	}
	var c C.snowfleet_generator_info
	c.size = C.uint32_t(unsafe.Sizeof(c))
	var e C.snowfleet_error
	rc := C.snowfleet_generator_info_get(h.c, &c, &e)
	runtime.KeepAlive(h)
	if rc != C.SNOWFLEET_OK {
		return Info{}, errorOf(&e)
	}
	return Info{Layout: C.GoString(&c.layout[0]), NodeID: int64(c.node_id), Mode: Mode(c.mode),
		MaxWaitMs: float64(c.max_wait_ms), MaxDriftMs: int64(c.max_drift_ms)}, nil
}

// Stats returns the generator's counters, read without stopping minting.
func (g *Generator) Stats() (Stats, error) {
	h, err := g.handle()
	if err != nil {
		return Stats{}, err
	}
	var c C.snowfleet_stats
	c.size = C.uint32_t(unsafe.Sizeof(c))
	var e C.snowfleet_error
	rc := C.snowfleet_generator_stats(h.c, &c, &e)
	runtime.KeepAlive(h)
	if rc != C.SNOWFLEET_OK {
		return Stats{}, errorOf(&e)
	}
	return statsFromC(&c), nil
}

// Status says whether a call now would be served, and why not; it reads the clock.
func (g *Generator) Status() (Status, error) {
	h, err := g.handle()
	if err != nil {
		return Status{}, err
	}
	var c C.snowfleet_status
	c.size = C.uint32_t(unsafe.Sizeof(c))
	var e C.snowfleet_error
	rc := C.snowfleet_generator_status(h.c, &c, &e)
	runtime.KeepAlive(h)
	if rc != C.SNOWFLEET_OK {
		return Status{}, errorOf(&e)
	}
	return statusFromC(&c), nil
}

// DriftMs is max(0, last issued ms - wall ms): how far the generator runs ahead of the clock.
func (g *Generator) DriftMs() (int64, error) {
	h, err := g.handle()
	if err != nil {
		return 0, err
	}
	var v C.int64_t
	var e C.snowfleet_error
	rc := C.snowfleet_generator_drift_ms(h.c, &v, &e)
	runtime.KeepAlive(h)
	if rc != C.SNOWFLEET_OK {
		return 0, errorOf(&e)
	}
	return int64(v), nil
}

// Close stops minting and releases a leased node id (writing its mark); later calls return
// ErrGeneratorClosed. Idempotent; waits for calls in flight.
func (g *Generator) Close() error {
	h, err := g.handle()
	if err != nil {
		return err
	}
	var e C.snowfleet_error
	rc := C.snowfleet_generator_close(h.c, &e)
	runtime.KeepAlive(h)
	if rc != C.SNOWFLEET_OK {
		return errorOf(&e)
	}
	return nil
}

// Closed reports whether Close was called.
func (g *Generator) Closed() bool {
	if g.h == nil {
		return false
	}
	closed := C.snowfleet_generator_closed(g.h.c) != 0
	runtime.KeepAlive(g.h)
	return closed
}
