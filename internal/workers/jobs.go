package workers

import (
	"context"
	"log/slog"
	"time"

	"github.com/trove-ml/trove/internal/domain"
)

// expiredSweepEvery is how often rows of expired workers are deleted
// (reads skip them anyway).
const expiredSweepEvery = 10 * time.Minute

// Jobs are the workers' background work (run by internal/app): the
// expired-worker sweep.
func Jobs(env *domain.Env) []domain.Job {
	return []domain.Job{
		{Name: "expired workers sweep", Every: expiredSweepEvery, Exclusive: true, Run: func(ctx context.Context, _ *slog.Logger) error {
			return SweepExpired(ctx, env)
		}},
	}
}
