package snowfleet

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// Two generators leasing from one etcd prefix hold two node ids; closing releases a slot.
// Needs SNOWFLEET_TEST_ETCD=host:port (scripts/test/go.sh starts an etcd).
func TestTwoGeneratorsLeaseFromOneEtcdPrefix(t *testing.T) {
	endpoint := os.Getenv("SNOWFLEET_TEST_ETCD")
	if endpoint == "" {
		t.Skip("SNOWFLEET_TEST_ETCD not set")
	}
	source := fmt.Sprintf("etcd://%s/go-%d-%d?ttl=5", endpoint, os.Getpid(), time.Now().UnixNano())
	layout := "41.2.20@1704067200000" // 4 slots
	a, err := New(Options{NodeSource: source, Layout: layout, Mode: Monotonic})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := New(Options{NodeSource: source, Layout: layout})
	if err != nil {
		t.Fatal(err)
	}
	ia, _ := a.Info()
	ib, _ := b.Info()
	if ia.NodeID == ib.NodeID {
		t.Fatalf("both generators hold node %d", ia.NodeID)
	}
	s, err := a.Status()
	if err != nil || s.LeaseState != LeaseHeld || s.LeaseExpiresInMs < 0 || !s.Healthy {
		t.Fatalf("status of an etcd lease: %+v %v", s, err)
	}
	seen := map[int64]bool{}
	for _, g := range []*Generator{a, b} {
		ids := make([]int64, 2000)
		if err := g.NextIDs(ids); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("id %d minted twice", id)
			}
			seen[id] = true
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if s, _ := b.Status(); s.LeaseState != LeaseReleased {
		t.Fatalf("after Close: %v", s.LeaseState)
	}
	c, err := New(Options{NodeSource: source, Layout: layout})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ic, _ := c.Info(); ic.NodeID == ia.NodeID {
		t.Fatalf("a third generator got the held node %d", ic.NodeID)
	}
}
