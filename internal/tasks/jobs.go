package tasks

import (
	"context"
	"log/slog"

	"github.com/trove-ml/trove/internal/domain"
)

// Jobs are the tasks' background work (run by internal/app): the
// silent-task watchdog.
func Jobs(env *domain.Env) []domain.Job {
	return []domain.Job{
		{Name: "tasks.silent_watchdog", Every: WatchdogPeriod, Exclusive: true, Run: func(ctx context.Context, log *slog.Logger) error {
			n, err := StopSilentTasks(ctx, env, SilentThreshold)
			if n > 0 {
				log.Info("stopped silent tasks", "count", n)
			}
			return err
		}},
	}
}
