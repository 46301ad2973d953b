// Command fleetworker is the Go process of the polyglot fleet: it leases a node id from a
// node source, mints for a few seconds and prints the fleet line protocol, as
// scripts/demo/fleet-demo/worker.py does (see scripts/demo/fleet_summary.py).
//
//	fleetworker SOURCE SECONDS [LAYOUT]
package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	snowfleet "github.com/snowfleet/snowfleet/go"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: fleetworker SOURCE SECONDS [LAYOUT]")
		os.Exit(2)
	}
	seconds, err := strconv.ParseFloat(os.Args[2], 64)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fleetworker: SECONDS %q is not a number\n", os.Args[2])
		os.Exit(2)
	}
	o := snowfleet.Options{NodeSource: os.Args[1]}
	if len(os.Args) > 3 {
		o.Layout = os.Args[3]
	}
	gen, err := snowfleet.New(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out := bufio.NewWriter(os.Stdout)
	info, _ := gen.Info()
	status, _ := gen.Status()
	fmt.Fprintf(out, "node %d %d\n", info.NodeID, status.MarkMs)
	ids := make([]int64, 64)
	text := make([]string, len(ids))
	for end := time.Now().Add(time.Duration(seconds * float64(time.Second))); time.Now().Before(end); {
		wall := time.Now().UnixMilli()
		if err := gen.NextIDs(ids); err != nil {
			var e *snowfleet.Error
			errors.As(err, &e)
			fmt.Fprintf(out, "error %s %d %s\n", e.Kind, wall, e.Message)
			out.Flush()
			time.Sleep(10 * time.Millisecond)
			continue
		}
		for i, id := range ids {
			text[i] = strconv.FormatInt(id, 10)
		}
		fmt.Fprintf(out, "ids %d %s\n", wall, strings.Join(text, " "))
		out.Flush()
		time.Sleep(500 * time.Microsecond)
	}
	if err := gen.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	st, _ := gen.Stats()
	fmt.Fprintf(out, "closed %d %d\n", st.IDsIssued, st.MarkWrites)
	out.Flush()
}
