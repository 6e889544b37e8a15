package main

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// The fleet on PostgreSQL shares the machine's cores with the database
// server, whose CPU a batch costs as much as Trove's own; the fleet prints
// it beside the server's and the clients' when the database runs on this
// machine (the backends' parent process is readable in /proc).

// postgresMeter finds the database server of a postgres:// URL from one
// of its backends; the zero meter when the URL is empty or the server is
// elsewhere.
func postgresMeter(url string) cpuMeter {
	if url == "" {
		return cpuMeter{}
	}
	conn, err := sql.Open("pgx", url)
	if err != nil {
		return cpuMeter{}
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var pid int
	if err := conn.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		return cpuMeter{}
	}
	return newCPUMeter(pid)
}

// printDatabaseCPU prints the database server's CPU between two marks,
// nothing when the meter reads no server.
func printDatabaseCPU(m cpuMeter, before, after cpuMark, res *fleetResult) {
	if m.server == 0 {
		return
	}
	cpu := (after.server - before.server).Seconds()
	secs := res.elapsed.Seconds()
	fmt.Printf("database CPU (PostgreSQL's processes): %.1f s over %.1f s = %.2f cores, %.2f ms per acknowledged batch\n",
		cpu, secs, cpu/secs, 1000*cpu/float64(max(1, res.acked.Load())))
}
