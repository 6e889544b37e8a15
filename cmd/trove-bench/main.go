// Command trove-bench runs Trove's benchmarks that need a whole server:
// each subcommand starts what it measures on loopback and prints figures.
package main

import (
	"fmt"
	"os"
	"sort"
)

// benches maps subcommand names to their runners; each file adds its own.
var benches = map[string]func(args []string) error{}

func main() {
	if len(os.Args) < 2 || benches[os.Args[1]] == nil {
		names := make([]string, 0, len(benches))
		for n := range benches {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "usage: trove-bench <%v> [flags]\n", names)
		os.Exit(2)
	}
	if err := benches[os.Args[1]](os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "trove-bench:", err)
		os.Exit(1)
	}
}
