// Package bench compares the snowfleet Go package with a bare cgo call and with the Go id
// generators people use today (go test -bench . in this folder; README.md has the figures).
package bench

/*
static void sf_bench_empty(void) {}
*/
import "C"

// EmptyCall is a cgo call to an empty C function: the floor of any call into the core.
func EmptyCall() { C.sf_bench_empty() }
