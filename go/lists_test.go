package snowfleet

import (
	"bytes"
	"os"
	"testing"

	"github.com/snowfleet/snowfleet/go/internal/lists"
)

// lists_gen.go is what `go generate` writes from the core's lists.h today.
func TestListsGenUpToDate(t *testing.T) {
	header, err := os.ReadFile("../core/include/snowfleet/lists.h")
	if err != nil {
		t.Fatal(err)
	}
	l, err := lists.Parse(string(header))
	if err != nil {
		t.Fatal(err)
	}
	want, err := lists.Render(l)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("lists_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("lists_gen.go is stale: run `go generate` in go/")
	}
	// The loaded library numbers the same kinds the same way, and no more.
	for k := Kind(0); int(k) <= len(l.ErrorKinds); k++ {
		if libraryCode(k) != k.String() {
			t.Errorf("kind %d: the library says %q, Go %q", k, libraryCode(k), k.String())
		}
	}
	if end := Kind(len(l.ErrorKinds) + 1); libraryCode(end) != "" {
		t.Errorf("the library knows a kind %d (%q) that lists.h has not", end, libraryCode(end))
	}
}
