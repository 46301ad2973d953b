package bench

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/snowflake"
	"github.com/google/uuid"
	snowfleet "github.com/snowfleet/snowfleet/go"
	"github.com/sony/sonyflake/v2"
)

// Every run takes a node id of its own: the process-wide id space remembers how far each
// node ran ahead, and a later generator on that node would start there.
var nextNode atomic.Int64

func generator(b *testing.B, mode snowfleet.Mode, maxDriftMs int64) *snowfleet.Generator {
	node := nextNode.Add(1)
	if node > 1023 {
		b.Skip("out of node ids for this process")
	}
	o := snowfleet.Options{NodeID: snowfleet.Int64(node), Mode: mode}
	if maxDriftMs > 0 {
		o.MaxDriftMs = snowfleet.Int64(maxDriftMs)
	}
	g, err := snowfleet.New(o)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { g.Close() })
	return g
}

func rate(b *testing.B, ids int) {
	b.ReportMetric(float64(ids)/b.Elapsed().Seconds(), "ids/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ids), "ns/id")
}

var sink int64

func BenchmarkEmptyCgoCall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		EmptyCall()
	}
}

// The cost of one call: monotonic, with a drift bound (a day) no run reaches, so the layout's
// 4,096 ids per ms never make it wait.
func BenchmarkNextIDMonotonicBurst(b *testing.B) {
	g := generator(b, snowfleet.Monotonic, 86_400_000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id, err := g.NextID()
		if err != nil {
			b.Fatal(err)
		}
		sink = id
	}
	rate(b, b.N)
}

// Sustained single calls, default settings: monotonic runs 1 s ahead of the clock, then
// keeps to the layout's 4,096 ids per ms.
func BenchmarkNextIDMonotonicSustained(b *testing.B) {
	g := generator(b, snowfleet.Monotonic, 0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id, err := g.NextID()
		if err != nil {
			b.Fatal(err)
		}
		sink = id
	}
	rate(b, b.N)
}

// Strict: never ahead of the clock, so at most 4,096 ids per ms.
func BenchmarkNextIDStrictSustained(b *testing.B) {
	g := generator(b, snowfleet.Strict, 0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id, err := g.NextID()
		if err != nil {
			b.Fatal(err)
		}
		sink = id
	}
	rate(b, b.N)
}

// bwmarrin/snowflake: 41.10.12 like the default layout, strict (waits for the next ms).
func BenchmarkBwmarrinSnowflake(b *testing.B) {
	node, err := snowflake.NewNode(1)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = node.Generate().Int64()
	}
	rate(b, b.N)
}

// sony/sonyflake/v2: 10 ms ticks and 256 ids per tick by default (25,600 ids/s per machine).
func BenchmarkSonyflake(b *testing.B) {
	sf, err := sonyflake.New(sonyflake.Settings{MachineID: func() (int, error) { return 1, nil }})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id, err := sf.NextID()
		if err != nil {
			b.Fatal(err)
		}
		sink = id
	}
	rate(b, b.N)
}

func benchNextIDs(b *testing.B, n int) {
	g := generator(b, snowfleet.Monotonic, 86_400_000)
	ids := make([]int64, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := g.NextIDs(ids); err != nil {
			b.Fatal(err)
		}
	}
	rate(b, b.N*n)
}

func BenchmarkNextIDs64(b *testing.B)    { benchNextIDs(b, 64) }
func BenchmarkNextIDs1024(b *testing.B)  { benchNextIDs(b, 1024) }
func BenchmarkNextIDs65536(b *testing.B) { benchNextIDs(b, 65536) }

var sinkUUID [16]byte

func BenchmarkUUID7Next(b *testing.B) {
	g, err := snowfleet.NewUUID7(snowfleet.UUID7Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		u, err := g.Next()
		if err != nil {
			b.Fatal(err)
		}
		sinkUUID = u
	}
	rate(b, b.N)
}

func BenchmarkUUID7NextMany1024(b *testing.B) {
	g, err := snowfleet.NewUUID7(snowfleet.UUID7Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	us := make([]snowfleet.UUID, 1024)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := g.NextMany(us); err != nil {
			b.Fatal(err)
		}
	}
	rate(b, b.N*len(us))
}

func BenchmarkGoogleUUIDNewV7(b *testing.B) {
	for i := 0; i < b.N; i++ {
		u, err := uuid.NewV7()
		if err != nil {
			b.Fatal(err)
		}
		sinkUUID = u
	}
	rate(b, b.N)
}

// The clock read every call costs at least, for scale.
func BenchmarkTimeNow(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = time.Now().UnixMilli()
	}
}
