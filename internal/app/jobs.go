package app

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/tasks"
	"github.com/trove-ml/trove/internal/workers"
)

// jobList is every start-up step and background job of Trove, the one
// place they are registered. Each domain package with background work
// exports its jobs (Jobs(env) []domain.Job, in its jobs.go), with their
// names, periods and locks; a new job is added there and, for a package
// not listed yet, its Jobs call here. Start-up steps run in this order.
func (a *App) jobList() []domain.Job {
	env := &a.Deps.Env
	return slices.Concat(
		tasks.Jobs(env),
		queues.Jobs(env),
		workers.Jobs(env),
		events.Jobs(env, a.Deps.Scrolls),
		mlflow.Jobs(env),
		a.retentionJobs(),
	)
}

// Jobs returns the jobs this server runs (tests, tools).
func (a *App) Jobs() []domain.Job { return slices.Clone(a.jobs.jobs) }

// StartJobs runs the periodic jobs until ctx ends, in goroutines counted
// by wg (Run does it; tools serving a.Handler themselves call it).
func (a *App) StartJobs(ctx context.Context, wg *sync.WaitGroup) { a.jobs.start(ctx, wg) }

// RunJobsOnce runs every periodic job once now, as its next scheduled run
// would (cluster lock included), and returns the first failure (tests,
// tools).
func (a *App) RunJobsOnce(ctx context.Context) error { return a.jobs.runAllOnce(ctx) }

// scheduler runs a job list: the start-up steps in order before the
// server serves, each periodic job on its own ticker while it serves.
type scheduler struct {
	jobs []domain.Job
	log  *slog.Logger
	// exclusive does one run of a periodic job holding its cluster lock,
	// or skips it while another process holds it (cluster.Node.RunJob).
	exclusive func(ctx context.Context, name string, fn func(ctx context.Context) error) error
	// inTurn runs a start-up step holding the start-up lock, so that
	// processes starting together take turns (cluster.Node.Startup).
	inTurn func(ctx context.Context, fn func(ctx context.Context) error) error
	// ticker gives the ticks of a period and its stop (nil:
	// time.NewTicker; tests tick by hand).
	ticker func(period time.Duration) (<-chan time.Time, func())
}

// runStartup runs the start-up steps in list order; the first failure
// stops the start.
func (s *scheduler) runStartup(ctx context.Context) error {
	for _, j := range s.jobs {
		if !j.AtStart() {
			continue
		}
		run := func(ctx context.Context) error { return j.Run(ctx, s.log) }
		var err error
		if j.Exclusive {
			err = s.inTurn(ctx, run)
		} else {
			err = run(ctx)
		}
		if err != nil {
			return fmt.Errorf("start %s: %w", j.Name, err)
		}
	}
	return nil
}

// start runs each periodic job at its period until ctx ends; a failing
// or panicking run is logged and the job goes on.
func (s *scheduler) start(ctx context.Context, wg *sync.WaitGroup) {
	for _, j := range s.jobs {
		if j.AtStart() {
			continue
		}
		ticks, stop := s.tick(j.Every)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-ticks:
					s.runLogged(ctx, j)
				}
			}
		}()
	}
}

func (s *scheduler) tick(period time.Duration) (<-chan time.Time, func()) {
	if s.ticker != nil {
		return s.ticker(period)
	}
	t := time.NewTicker(period)
	return t.C, t.Stop
}

func (s *scheduler) runLogged(ctx context.Context, j domain.Job) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("job panic", "job", j.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	if err := s.runOnce(ctx, j); err != nil && ctx.Err() == nil {
		s.log.Error("job failed", "job", j.Name, "error", err.Error())
	}
}

func (s *scheduler) runOnce(ctx context.Context, j domain.Job) error {
	run := func(ctx context.Context) error { return j.Run(ctx, s.log) }
	if j.Exclusive {
		return s.exclusive(ctx, j.Name, run)
	}
	return run(ctx)
}

// runAllOnce runs every periodic job once, in list order.
func (s *scheduler) runAllOnce(ctx context.Context) error {
	for _, j := range s.jobs {
		if j.AtStart() {
			continue
		}
		if err := s.runOnce(ctx, j); err != nil {
			return fmt.Errorf("job %s: %w", j.Name, err)
		}
	}
	return nil
}
