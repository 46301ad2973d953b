package snowfleet

/*
#include "snowfleet.h"
*/
import "C"

import (
	"fmt"
	"strconv"
	"time"
	"unsafe"
)

// Layout is how an id's 63 bits are split: epoch, timestamp, node (optionally datacenter +
// machine) and sequence bits. Its methods decode and compose ids of that layout, read from
// its Text: make one with ParseLayout or NewLayout (the zero Layout is the default layout; one
// with fields but no Text is refused).
type Layout struct {
	// Text is the layout's text form, "41.10.12@1704067200000"; it parses back to this layout.
	Text string
	// Preset is "default", "twitter", "discord" or "".
	Preset string
	LayoutFields
}

// The preset layouts.
var (
	// DefaultLayout is 41.10.12@1704067200000: 41 timestamp bits from 2024-01-01, 1,024
	// nodes, 4,096 ids per ms per node.
	DefaultLayout = mustLayout("default")
	// TwitterLayout is 41.5.5.12@1288834974657, Twitter's original layout.
	TwitterLayout = mustLayout("twitter")
	// DiscordLayout is 41.5.5.12@1420070400000, Discord's.
	DiscordLayout = mustLayout("discord")
)

func mustLayout(text string) Layout {
	l, err := ParseLayout(text)
	if err != nil {
		panic(err)
	}
	return l
}

func layoutOfC(c *C.snowfleet_layout) Layout {
	return Layout{Text: C.GoString(&c.text[0]), Preset: C.GoString(&c.preset[0]), LayoutFields: layoutFieldsFromC(c)}
}

// ParseLayout reads a layout's text form ("41.10.12@1704067200000", "41.5.5.12@...") or a
// preset name.
func ParseLayout(text string) (Layout, error) {
	var c C.snowfleet_layout
	c.size = C.uint32_t(unsafe.Sizeof(c))
	var e C.snowfleet_error
	p, n := textArg(text)
	if C.snowfleet_layout_parse(p, n, &c, &e) != C.SNOWFLEET_OK {
		return Layout{}, errorOf(&e)
	}
	return layoutOfC(&c), nil
}

// LayoutArgs are the six values a layout is created from; nil ones take the core's rule (the
// default epoch, the node field unsplit...).
type LayoutArgs struct {
	EpochMs, TimestampBits, NodeBits, DatacenterBits, MachineBits, SequenceBits *int64
}

// NewLayout creates a layout from its fields.
func NewLayout(a LayoutArgs) (Layout, error) {
	var ca C.snowfleet_layout_args
	ca.size = C.uint32_t(unsafe.Sizeof(ca))
	set := func(v *int64, out *C.int64_t, has *C.int32_t) {
		if v != nil {
			*out, *has = C.int64_t(*v), 1
		}
	}
	set(a.EpochMs, &ca.epoch_ms, &ca.has_epoch_ms)
	set(a.TimestampBits, &ca.timestamp_bits, &ca.has_timestamp_bits)
	set(a.NodeBits, &ca.node_bits, &ca.has_node_bits)
	set(a.DatacenterBits, &ca.datacenter_bits, &ca.has_datacenter_bits)
	set(a.MachineBits, &ca.machine_bits, &ca.has_machine_bits)
	set(a.SequenceBits, &ca.sequence_bits, &ca.has_sequence_bits)
	var c C.snowfleet_layout
	c.size = C.uint32_t(unsafe.Sizeof(c))
	var e C.snowfleet_error
	if C.snowfleet_layout_create(&ca, &c, &e) != C.SNOWFLEET_OK {
		return Layout{}, errorOf(&e)
	}
	return layoutOfC(&c), nil
}

// String is the layout's text form.
func (l Layout) String() string { return l.Text }

// describe names a layout that has no Text, by its preset or its fields.
func (l Layout) describe() string {
	if l.Preset != "" {
		return "with preset " + strconv.Quote(l.Preset)
	}
	f := l.LayoutFields
	return fmt.Sprintf("{EpochMs: %d, TimestampBits: %d, NodeBits: %d, DatacenterBits: %d, MachineBits: %d, SequenceBits: %d}",
		f.EpochMs, f.TimestampBits, f.NodeBits, f.DatacenterBits, f.MachineBits, f.SequenceBits)
}

// withText calls f with the layout's text as a C string (NULL for the zero Layout: the
// default layout). A Layout whose fields or preset are set without its Text is refused
// rather than read as the default layout.
func (l Layout) withText(f func(*C.char) C.snowfleet_result, e *C.snowfleet_error) error {
	var texts cTexts
	defer texts.free()
	var p *C.char
	if l.Text == "" && l != (Layout{}) {
		return &Error{Kind: KindInvalidArgument, Message: "layout " + l.describe() +
			" has no Text: a Layout is read from its Text; make it with ParseLayout or NewLayout"}
	}
	if l.Text != "" {
		var err error
		if p, err = texts.add("layout", l.Text); err != nil {
			return err
		}
	}
	if f(p) != C.SNOWFLEET_OK {
		return errorOf(e)
	}
	return nil
}

// Decoded are the fields of an id.
type Decoded struct {
	TimestampMs  int64 // Unix ms
	NodeID       int64
	DatacenterID int64 // the node id's high part (0 when the layout does not split it)
	MachineID    int64 // the node id's low part
	Sequence     int64
}

// Time is the id's timestamp as a time.Time (UTC).
func (d Decoded) Time() time.Time { return time.UnixMilli(d.TimestampMs).UTC() }

func decodedOf(c *C.snowfleet_decoded) Decoded {
	return Decoded{TimestampMs: int64(c.timestamp_ms), NodeID: int64(c.node_id),
		DatacenterID: int64(c.datacenter_id), MachineID: int64(c.machine_id), Sequence: int64(c.sequence)}
}

// Decode returns the fields of an id of this layout.
func (l Layout) Decode(id int64) (Decoded, error) {
	var c C.snowfleet_decoded
	c.size = C.uint32_t(unsafe.Sizeof(c))
	var e C.snowfleet_error
	err := l.withText(func(t *C.char) C.snowfleet_result { return C.snowfleet_decode(t, C.int64_t(id), &c, &e) }, &e)
	return decodedOf(&c), err
}

// DecodeText returns the fields of an id given as decimal text (read strictly).
func (l Layout) DecodeText(id string) (Decoded, error) {
	var c C.snowfleet_decoded
	c.size = C.uint32_t(unsafe.Sizeof(c))
	var e C.snowfleet_error
	p, n := textArg(id)
	err := l.withText(func(t *C.char) C.snowfleet_result { return C.snowfleet_decode_text(t, p, n, &c, &e) }, &e)
	return decodedOf(&c), err
}

// Parts are what Compose reads: the node as NodeID or as DatacenterID + MachineID; a nil
// Sequence is 0.
type Parts struct {
	TimestampMs                               int64 // Unix ms
	NodeID, DatacenterID, MachineID, Sequence *int64
}

// Compose returns the id of those fields in this layout.
func (l Layout) Compose(p Parts) (int64, error) {
	var a C.snowfleet_compose_args
	a.size = C.uint32_t(unsafe.Sizeof(a))
	a.timestamp_ms = C.int64_t(p.TimestampMs)
	set := func(v *int64, out *C.int64_t, has *C.int32_t) {
		if v != nil {
			*out, *has = C.int64_t(*v), 1
		}
	}
	set(p.NodeID, &a.node_id, &a.has_node_id)
	set(p.DatacenterID, &a.datacenter_id, &a.has_datacenter_id)
	set(p.MachineID, &a.machine_id, &a.has_machine_id)
	set(p.Sequence, &a.sequence, &a.has_sequence)
	var id C.int64_t
	var e C.snowfleet_error
	err := l.withText(func(t *C.char) C.snowfleet_result { return C.snowfleet_compose(t, &a, &id, &e) }, &e)
	return int64(id), err
}

// ComposeNode returns the id of a node id and sequence at Unix ms timestampMs.
func (l Layout) ComposeNode(timestampMs, nodeID, sequence int64) (int64, error) {
	var id C.int64_t
	var e C.snowfleet_error
	err := l.withText(func(t *C.char) C.snowfleet_result {
		return C.snowfleet_compose_node(t, C.int64_t(timestampMs), C.int64_t(nodeID), C.int64_t(sequence), &id, &e)
	}, &e)
	return int64(id), err
}

// MinID is the smallest id the layout can give at Unix ms timestampMs.
func (l Layout) MinID(timestampMs int64) (int64, error) {
	var id C.int64_t
	var e C.snowfleet_error
	err := l.withText(func(t *C.char) C.snowfleet_result { return C.snowfleet_min_id(t, C.int64_t(timestampMs), &id, &e) }, &e)
	return int64(id), err
}

// MaxID is the largest id the layout can give at Unix ms timestampMs.
func (l Layout) MaxID(timestampMs int64) (int64, error) {
	var id C.int64_t
	var e C.snowfleet_error
	err := l.withText(func(t *C.char) C.snowfleet_result { return C.snowfleet_max_id(t, C.int64_t(timestampMs), &id, &e) }, &e)
	return int64(id), err
}

// IDRange returns the first and last id of the half-open range [startMs, endMs) widened by
// slackMs on each side, for a `WHERE id BETWEEN first AND last` query.
func (l Layout) IDRange(startMs, endMs, slackMs int64) (first, last int64, err error) {
	var f, z C.int64_t
	var e C.snowfleet_error
	err = l.withText(func(t *C.char) C.snowfleet_result {
		return C.snowfleet_id_range(t, C.int64_t(startMs), C.int64_t(endMs), C.int64_t(slackMs), &f, &z, &e)
	}, &e)
	return int64(f), int64(z), err
}

// Decode returns the fields of an id of the default layout.
func Decode(id int64) (Decoded, error) { return DefaultLayout.Decode(id) }

// Compose returns the id of the default layout for a node id and sequence at Unix ms
// timestampMs.
func Compose(timestampMs, nodeID, sequence int64) (int64, error) {
	return DefaultLayout.ComposeNode(timestampMs, nodeID, sequence)
}
