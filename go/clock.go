package snowfleet

/*
#include "snowfleet.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// ScriptedClock is a clock for deterministic tests: its wall readings follow a script, its
// sleeps take no time. Give it to generators through Options.Clock (or UUID7Options.Clock);
// they keep it alive. Safe for concurrent use. Use the *ScriptedClock NewScriptedClock or
// FrozenClock returns: a zero ScriptedClock is refused with ErrInvalidArgument.
type ScriptedClock struct {
	h *clockHandle
}

// clockHandle owns the C clock; the finalizer sits on it, so a copied ScriptedClock value
// keeps it alive.
type clockHandle struct {
	c *C.snowfleet_clock
}

// handle is the C clock, or an error for a zero ScriptedClock.
func (c *ScriptedClock) handle() (*C.snowfleet_clock, error) {
	if c.h == nil {
		return nil, &Error{Kind: KindInvalidArgument,
			Message: "this ScriptedClock was not created by NewScriptedClock or FrozenClock (a zero ScriptedClock has no clock behind it)"}
	}
	return c.h.c, nil
}

// ClockSegment is a part of a clock's script: Count readings from Ms, StepMs added every
// Every readings. The last segment's last reading repeats.
type ClockSegment struct {
	Ms, Count, StepMs, Every int64
}

// ClockCounters count what a scripted clock was asked.
type ClockCounters struct {
	Reads, SleepCount, SleptNs, MaxSleepNs, MinSleepNs int64
}

// NewScriptedClock returns a clock following the segments (none: one reading of 0 ms,
// repeated).
func NewScriptedClock(segments ...ClockSegment) (*ScriptedClock, error) {
	cs := make([]C.snowfleet_clock_segment, len(segments))
	for i, s := range segments {
		cs[i] = C.snowfleet_clock_segment{ms: C.int64_t(s.Ms), count: C.int64_t(s.Count),
			step_ms: C.int64_t(s.StepMs), every: C.int64_t(s.Every)}
	}
	var clock *C.snowfleet_clock
	var e C.snowfleet_error
	if C.snowfleet_clock_new(unsafe.SliceData(cs), C.size_t(len(cs)), &clock, &e) != C.SNOWFLEET_OK {
		return nil, errorOf(&e)
	}
	h := &clockHandle{c: clock}
	runtime.SetFinalizer(h, func(h *clockHandle) { C.snowfleet_clock_free(h.c) })
	return &ScriptedClock{h: h}, nil
}

// FrozenClock returns a clock whose every reading is ms. Like a Must function it panics
// with NewScriptedClock's *Error when ms is outside the clock's range (nanoseconds in an
// int64: ±9,223,372,036,854 ms).
func FrozenClock(ms int64) *ScriptedClock {
	c, err := NewScriptedClock(ClockSegment{Ms: ms, Count: 1, Every: 1})
	if err != nil {
		panic(err)
	}
	return c
}

// SetWallMs makes every later reading ms (the script is replaced).
func (c *ScriptedClock) SetWallMs(ms int64) error {
	k, err := c.handle()
	if err != nil {
		return err
	}
	var e C.snowfleet_error
	rc := C.snowfleet_clock_set_wall_ms(k, C.int64_t(ms), &e)
	runtime.KeepAlive(c.h)
	if rc != C.SNOWFLEET_OK {
		return errorOf(&e)
	}
	return nil
}

// AdvanceWallMs moves the clock by delta ms (negative: a rewind).
func (c *ScriptedClock) AdvanceWallMs(delta int64) error {
	k, err := c.handle()
	if err != nil {
		return err
	}
	var e C.snowfleet_error
	rc := C.snowfleet_clock_advance_wall_ms(k, C.int64_t(delta), &e)
	runtime.KeepAlive(c.h)
	if rc != C.SNOWFLEET_OK {
		return errorOf(&e)
	}
	return nil
}

// Counters returns how often the clock was read and slept on.
func (c *ScriptedClock) Counters() (ClockCounters, error) {
	h, err := c.handle()
	if err != nil {
		return ClockCounters{}, err
	}
	var k C.snowfleet_clock_counters
	k.size = C.uint32_t(unsafe.Sizeof(k))
	var e C.snowfleet_error
	rc := C.snowfleet_clock_counters_get(h, &k, &e)
	runtime.KeepAlive(c.h)
	if rc != C.SNOWFLEET_OK {
		return ClockCounters{}, errorOf(&e)
	}
	return ClockCounters{Reads: int64(k.reads), SleepCount: int64(k.sleep_count), SleptNs: int64(k.slept_ns),
		MaxSleepNs: int64(k.max_sleep_ns), MinSleepNs: int64(k.min_sleep_ns)}, nil
}
