package snowfleet

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Go processes are fleet members: two worker processes (internal/fleetworker, the fleet's
// line protocol) and a generator in this process lease from one local: registry: three
// distinct node ids, no id minted twice.
func TestProcessesShareOneLocalRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs two processes")
	}
	dir := t.TempDir()
	worker := filepath.Join(dir, "fleetworker")
	build := exec.Command("go", "build", "-o", worker, "./internal/fleetworker")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	registry := "local:" + filepath.Join(dir, "registry")
	here, err := New(Options{NodeSource: registry})
	if err != nil {
		t.Fatal(err)
	}
	defer here.Close()
	var outs [2]bytes.Buffer
	cmds := make([]*exec.Cmd, 2)
	for i := range cmds {
		cmds[i] = exec.Command(worker, registry, "1")
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], os.Stderr
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	info, _ := here.Info()
	nodes := map[int64]string{info.NodeID: "this process"}
	seen := map[int64]bool{}
	batch := make([]int64, 1000)
	if err := here.NextIDs(batch); err != nil {
		t.Fatal(err)
	}
	for _, id := range batch {
		seen[id] = true
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("worker %d: %v", i, err)
		}
		lines := bufio.NewScanner(&outs[i])
		lines.Buffer(make([]byte, 1<<20), 1<<20)
		closed := false
		for lines.Scan() {
			f := strings.Fields(lines.Text())
			switch f[0] {
			case "node":
				n, _ := strconv.ParseInt(f[1], 10, 64)
				if other, taken := nodes[n]; taken {
					t.Fatalf("worker %d holds node %d, as %s does", i, n, other)
				}
				nodes[n] = "worker " + strconv.Itoa(i)
			case "ids":
				for _, s := range f[2:] {
					id, _ := strconv.ParseInt(s, 10, 64)
					if seen[id] {
						t.Fatalf("id %d minted twice", id)
					}
					seen[id] = true
				}
			case "closed":
				closed = true
			case "error":
				t.Errorf("worker %d: %s", i, lines.Text())
			}
		}
		if !closed {
			t.Errorf("worker %d did not close", i)
		}
	}
	if len(nodes) != 3 || len(seen) < 2000 {
		t.Fatalf("nodes %v, %d ids", nodes, len(seen))
	}
}
