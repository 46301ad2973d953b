package snowfleet

import (
	"sync"
	"testing"
)

// Two generators in one Go process leasing from one local: registry hold two node ids, and
// a closed one's node id is free again.
func TestTwoGeneratorsLeaseDifferentNodes(t *testing.T) {
	dir := t.TempDir()
	a, err := New(Options{NodeSource: "local:" + dir, Mode: Monotonic})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(Options{NodeSource: "local:" + dir})
	if err != nil {
		t.Fatal(err)
	}
	ia, _ := a.Info()
	ib, _ := b.Info()
	if ia.NodeID == ib.NodeID {
		t.Fatalf("both generators hold node %d", ia.NodeID)
	}
	sa, _ := a.Status()
	if sa.LeaseState != LeaseHeld || sa.MarkMs < 0 {
		t.Fatalf("status of a leased generator: %+v", sa)
	}
	seen := map[int64]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, g := range []*Generator{a, b, a, b} {
		wg.Add(1)
		go func(g *Generator) {
			defer wg.Done()
			ids := make([]int64, 5000)
			if err := g.NextIDs(ids); err != nil {
				t.Error(err)
				return
			}
			for i := 0; i < 1000; i++ {
				id, err := g.NextID()
				if err != nil {
					t.Error(err)
					return
				}
				ids = append(ids, id)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, id := range ids {
				if seen[id] {
					t.Errorf("id %d minted twice", id)
				}
				seen[id] = true
			}
		}(g)
	}
	wg.Wait()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if s, _ := a.Status(); s.LeaseState != LeaseReleased {
		t.Fatalf("after Close: %v", s.LeaseState)
	}
	c, err := New(Options{NodeSource: "local:" + dir})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	defer b.Close()
	if ic, _ := c.Info(); ic.NodeID == ib.NodeID {
		t.Fatalf("a third generator got the held node %d", ic.NodeID)
	}
}
