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
// they keep it alive. Safe for concurrent use.
type ScriptedClock struct {
	c *C.snowfleet_clock
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
	c := &ScriptedClock{c: clock}
	runtime.SetFinalizer(c, func(c *ScriptedClock) { C.snowfleet_clock_free(c.c) })
	return c, nil
}

// FrozenClock returns a clock whose every reading is ms.
func FrozenClock(ms int64) *ScriptedClock {
	c, err := NewScriptedClock(ClockSegment{Ms: ms, Count: 1, Every: 1})
	if err != nil {
		panic(err) // one segment of one reading is always a valid script
	}
	return c
}

// SetWallMs makes every later reading ms (the script is replaced).
func (c *ScriptedClock) SetWallMs(ms int64) error {
	var e C.snowfleet_error
	rc := C.snowfleet_clock_set_wall_ms(c.c, C.int64_t(ms), &e)
	runtime.KeepAlive(c)
	if rc != C.SNOWFLEET_OK {
		return errorOf(&e)
	}
	return nil
}

// AdvanceWallMs moves the clock by delta ms (negative: a rewind).
func (c *ScriptedClock) AdvanceWallMs(delta int64) error {
	var e C.snowfleet_error
	rc := C.snowfleet_clock_advance_wall_ms(c.c, C.int64_t(delta), &e)
	runtime.KeepAlive(c)
	if rc != C.SNOWFLEET_OK {
		return errorOf(&e)
	}
	return nil
}

// Counters returns how often the clock was read and slept on.
func (c *ScriptedClock) Counters() (ClockCounters, error) {
	var k C.snowfleet_clock_counters
	k.size = C.uint32_t(unsafe.Sizeof(k))
	var e C.snowfleet_error
	rc := C.snowfleet_clock_counters_get(c.c, &k, &e)
	runtime.KeepAlive(c)
	if rc != C.SNOWFLEET_OK {
		return ClockCounters{}, errorOf(&e)
	}
	return ClockCounters{Reads: int64(k.reads), SleepCount: int64(k.sleep_count), SleptNs: int64(k.slept_ns),
		MaxSleepNs: int64(k.max_sleep_ns), MinSleepNs: int64(k.min_sleep_ns)}, nil
}
