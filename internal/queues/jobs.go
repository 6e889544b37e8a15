package queues

import (
	"context"
	"log/slog"
	"time"

	"github.com/trove-ml/trove/internal/domain"
)

// Jobs are the queues' background work (run by internal/app): the default
// queue made at start (processes starting together take turns), and the
// metrics refresh of idle queues.
func Jobs(env *domain.Env) []domain.Job {
	// env.Now is read at each run: tests fix the clock after start-up.
	m := &Metrics{DB: env.DB, Now: func() time.Time { return env.Now() }}
	return []domain.Job{
		{Name: "default queue", Exclusive: true, Run: func(ctx context.Context, _ *slog.Logger) error {
			return EnsureDefaultQueues(ctx, env.DB, env.Time())
		}},
		{Name: "queue metrics refresh", Every: RefreshEvery, Exclusive: true, Run: func(ctx context.Context, _ *slog.Logger) error {
			return m.RefreshStale(ctx)
		}},
	}
}
