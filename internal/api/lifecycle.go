package api

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

// Hooks let services take part in start-up and run background jobs; the
// app runs them (see app.Run).
type Hooks struct {
	mu      sync.Mutex
	onStart []startHook
	jobs    []job
	// Exclusive, when set, runs each run of a job, so that processes
	// sharing the database do not run the same job at once
	// (cluster.Node.RunJob).
	Exclusive func(ctx context.Context, name string, fn func(ctx context.Context) error) error
}

type startHook struct {
	name string
	fn   func(ctx context.Context) error
}

type job struct {
	name  string
	every time.Duration
	fn    func(ctx context.Context) error
}

// OnStart registers fn to run once when the server starts, after the store
// is ready (e.g. creating the default queue).
func (h *Hooks) OnStart(name string, fn func(ctx context.Context) error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.onStart = append(h.onStart, startHook{name, fn})
}

// Every registers a background job run at a fixed period while serving.
func (h *Hooks) Every(name string, period time.Duration, fn func(ctx context.Context) error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.jobs = append(h.jobs, job{name, period, fn})
}

// RunStart runs the start hooks in registration order.
func (d *Deps) RunStart(ctx context.Context) error {
	for _, h := range d.Hooks.onStart {
		if err := h.fn(ctx); err != nil {
			return fmt.Errorf("start %s: %w", h.name, err)
		}
	}
	return nil
}

// StartJobs runs the background jobs until ctx ends; a panicking or failing
// run is logged and the job goes on.
func (d *Deps) StartJobs(ctx context.Context, wg *sync.WaitGroup) {
	for _, j := range d.Hooks.jobs {
		wg.Add(1)
		go func(j job) {
			defer wg.Done()
			t := time.NewTicker(j.every)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					d.runJob(ctx, j)
				}
			}
		}(j)
	}
}

func (d *Deps) runJob(ctx context.Context, j job) {
	defer func() {
		if p := recover(); p != nil {
			d.Log.Error("job panic", "job", j.name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	if err := d.runOnce(ctx, j); err != nil && ctx.Err() == nil {
		d.Log.Error("job failed", "job", j.name, "error", err.Error())
	}
}

func (d *Deps) runOnce(ctx context.Context, j job) error {
	if d.Hooks.Exclusive != nil {
		return d.Hooks.Exclusive(ctx, j.name, j.fn)
	}
	return j.fn(ctx)
}

// RunJobsOnce runs every background job once now, as its next scheduled
// run would, and returns the first failure (tests, tools).
func (d *Deps) RunJobsOnce(ctx context.Context) error {
	for _, j := range d.Hooks.jobs {
		if err := d.runOnce(ctx, j); err != nil {
			return fmt.Errorf("job %s: %w", j.name, err)
		}
	}
	return nil
}
