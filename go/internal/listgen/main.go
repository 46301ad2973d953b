// Command listgen writes lists_gen.go from core/include/snowfleet/lists.h (go generate, run
// in the go/ folder).
package main

import (
	"log"
	"os"

	"github.com/snowfleet/snowfleet/go/internal/lists"
)

func main() {
	header, err := os.ReadFile("../core/include/snowfleet/lists.h")
	if err != nil {
		log.Fatal(err)
	}
	l, err := lists.Parse(string(header))
	if err != nil {
		log.Fatal(err)
	}
	src, err := lists.Render(l)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("lists_gen.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
