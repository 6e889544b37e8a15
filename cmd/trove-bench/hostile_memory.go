package main

import (
	"bufio"
	"fmt"
	"net/http"
	"strings"
)

// memPoint is the server's memory at one point of a run, in MiB: its RSS
// and the Go heap in use (the rest of the RSS is mostly SQLite's memory,
// which the Go runtime does not see).
type memPoint struct {
	Done          int
	RSS, GoHeapMB float64
}

// memory reads the child's RSS and, from its /metrics, the Go heap in use.
func (c *childServer) memory(done int) memPoint {
	p := memPoint{Done: done}
	p.RSS, _ = c.RSS()
	resp, err := http.Get(c.URL + "/metrics")
	if err != nil {
		return p
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_memstats_heap_inuse_bytes "); ok {
			var b float64
			_, _ = fmt.Sscanf(v, "%g", &b) // an unreadable value counts as 0
			p.GoHeapMB = b / (1 << 20)
		}
	}
	return p
}

func printMemory(points []memPoint) {
	fmt.Printf("server memory during the run (requests done: RSS / Go heap in use, MiB):\n ")
	for _, p := range points {
		fmt.Printf(" %d: %.0f/%.0f", p.Done, p.RSS, p.GoHeapMB)
	}
	fmt.Println()
}
