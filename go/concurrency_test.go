package snowfleet

import (
	"encoding/json"
	"sync"
	"testing"
)

// One generator shared by many goroutines: every id distinct (go test -race runs it too).
func TestOneGeneratorManyGoroutines(t *testing.T) {
	g, err := New(Options{NodeID: Int64(11), Mode: Monotonic})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	const workers, each = 8, 20000
	results := make([][]int64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ids := make([]int64, 0, each+64)
			for i := 0; i < each; i++ {
				id, err := g.NextID()
				if err != nil {
					t.Error(err)
					return
				}
				if len(ids) > 0 && id <= ids[len(ids)-1] {
					t.Errorf("goroutine %d: %d after %d", w, id, ids[len(ids)-1])
				}
				ids = append(ids, id)
			}
			batch := make([]int64, 64)
			if err := g.NextIDs(batch); err != nil {
				t.Error(err)
			}
			results[w] = append(ids, batch...)
		}(w)
	}
	wg.Wait()
	seen := make(map[int64]bool, workers*(each+64))
	for _, ids := range results {
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("id %d minted twice", id)
			}
			seen[id] = true
		}
	}
	if st, _ := g.Stats(); st.IDsIssued != uint64(len(seen)) {
		t.Fatalf("ids_issued %d, distinct ids %d", st.IDsIssued, len(seen))
	}
}

func TestUUIDText(t *testing.T) {
	g, err := NewUUID7(UUID7Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	u, err := g.Next()
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]UUID{"id": u})
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]UUID
	if err := json.Unmarshal(data, &back); err != nil || back["id"] != u {
		t.Fatalf("JSON round trip: %s -> %v (%v)", data, back, err)
	}
	if u[6]>>4 != 7 {
		t.Fatalf("version nibble of %s", u)
	}
	if _, err := ParseUUID("not-a-uuid"); err == nil {
		t.Fatal("ParseUUID accepted junk")
	}
	var v UUID
	if err := v.UnmarshalText([]byte("zz")); err == nil || v != (UUID{}) {
		t.Fatal("UnmarshalText of junk changed the value or succeeded")
	}
}

// An empty or nil destination is a call for no ids, not an error.
func TestEmptyBatches(t *testing.T) {
	g, err := New(Options{NodeID: Int64(12)})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.NextIDs(nil); err != nil {
		t.Fatalf("NextIDs(nil): %v", err)
	}
	if err := g.NextIDs([]int64{}); err != nil {
		t.Fatalf("NextIDs([]int64{}): %v", err)
	}
	u, err := NewUUID7(UUID7Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	if err := u.NextMany(nil); err != nil {
		t.Fatalf("NextMany(nil): %v", err)
	}
	if st, _ := g.Stats(); st.IDsIssued != 0 {
		t.Fatalf("ids issued: %d", st.IDsIssued)
	}
}
