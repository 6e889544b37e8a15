package domain

import (
	"context"
	"log/slog"
	"time"
)

// Job is a piece of background work of a domain package: a start-up step
// run once before the server serves, or a job run at a fixed period while
// it serves. Domain packages export theirs (tasks.Jobs, events.Jobs, ...);
// internal/app lists them all in one place (app/jobs.go) and runs them.
// No handler package registers or starts one.
type Job struct {
	// Name names the job in logs and in its cluster lock; unique.
	Name string
	// Every is the period between runs while serving; zero makes the
	// job a start-up step (AtStart).
	Every time.Duration
	// Exclusive asks for the cluster lock when several processes share
	// one PostgreSQL database (internal/cluster): a periodic run is
	// skipped while another process runs the same job, a start-up step
	// waits for the other processes' start-up steps. Without it every
	// process runs the job on its own (say, loading a key into memory).
	Exclusive bool
	// Run does one run. A periodic job's error is logged and the job
	// goes on at its next period; a start-up step's error stops the
	// start. log is the server's logger.
	Run func(ctx context.Context, log *slog.Logger) error
}

// AtStart reports whether the job is a start-up step.
func (j Job) AtStart() bool { return j.Every == 0 }
