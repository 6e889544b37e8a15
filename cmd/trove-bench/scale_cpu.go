package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cpuMark is the CPU used so far by this process and by the database
// server's processes, so that each tenth of an ingest can be priced per
// point whatever the neighbours take of the cores.
type cpuMark struct {
	self, server time.Duration
}

// cpuMeter reads both; server is the server's main process (the parent
// of its backends), 0 when there is none on this machine to read.
type cpuMeter struct {
	server int
}

// newCPUMeter finds the server's main process from one of its backends.
func newCPUMeter(backend int) cpuMeter {
	if backend <= 0 {
		return cpuMeter{}
	}
	st, ok := readProcStat(backend)
	if !ok {
		return cpuMeter{} // a server on another machine
	}
	return cpuMeter{server: st.ppid}
}

func (m cpuMeter) mark() cpuMark {
	return cpuMark{self: cpuTime(), server: m.serverCPU()}
}

// serverCPU sums the CPU of the server's main process and of its
// children, with the children they reaped (an exited autovacuum worker's
// time moves to the main process's), leaving other servers on the
// machine out.
func (m cpuMeter) serverCPU() time.Duration {
	if m.server == 0 {
		return 0
	}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ticks int64
	for _, f := range stats {
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		st, ok := readProcStat(pid)
		if ok && (pid == m.server || st.ppid == m.server) {
			ticks += st.ticks
		}
	}
	// the kernel counts in USER_HZ, 100 on Linux
	return time.Duration(ticks) * 10 * time.Millisecond
}

type procStat struct {
	ppid int
	// ticks: utime + stime + cutime + cstime
	ticks int64
}

// readProcStat parses /proc/PID/stat: pid (comm) state ppid ... utime(14)
// stime(15) cutime(16) cstime(17).
func readProcStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	s := string(b)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return procStat{}, false
	}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 15 {
		return procStat{}, false
	}
	var st procStat
	st.ppid, _ = strconv.Atoi(fields[1])
	for _, k := range fields[11:15] {
		n, _ := strconv.ParseInt(k, 10, 64)
		st.ticks += n
	}
	return st, true
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
