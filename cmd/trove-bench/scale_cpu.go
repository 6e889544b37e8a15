package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cpuMark is the CPU used so far by this process and by the PostgreSQL
// server's processes on this machine, so that each tenth of an ingest can
// be priced per point whatever the neighbours take of the cores.
type cpuMark struct {
	self, server time.Duration
}

func markCPU() cpuMark {
	return cpuMark{self: cpuTime(), server: serverCPU()}
}

// serverCPU sums the CPU of every local process named postgres, with the
// children they have reaped (an exited autovacuum worker's time moves to
// the postmaster's), or 0 when none is visible (SQLite, a remote server).
func serverCPU() time.Duration {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ticks int64
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ... utime(14) stime(15) cutime(16) cstime(17)
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open || s[open+1:end] != "postgres" {
			continue
		}
		fields := strings.Fields(s[end+1:])
		if len(fields) < 15 {
			continue
		}
		for _, k := range fields[11:15] {
			n, _ := strconv.ParseInt(k, 10, 64)
			ticks += n
		}
	}
	// the kernel counts in USER_HZ, 100 on Linux
	return time.Duration(ticks) * 10 * time.Millisecond
}

// perPoint formats the CPU between two marks per point, in microseconds.
func perPoint(a, b cpuMark, points int64) string {
	us := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(points) }
	out := "trove " + strconv.FormatFloat(us(b.self-a.self), 'f', 2, 64)
	if b.server > 0 {
		out += " + server " + strconv.FormatFloat(us(b.server-a.server), 'f', 2, 64)
	}
	return out + " us"
}
