package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/trove-ml/trove/internal/domain"
)

// retentionPeriod is how often old monitoring samples are pruned: each run
// then deletes only a few minutes' worth of rows.
const retentionPeriod = 10 * time.Minute

// retentionJobs is the pruning job, unless samples are kept forever.
func (a *App) retentionJobs() []domain.Job {
	if a.Cfg.StatsRetention <= 0 {
		return nil
	}
	return []domain.Job{{Name: "stats retention", Every: retentionPeriod, Exclusive: true, Run: func(ctx context.Context, _ *slog.Logger) error {
		_, err := a.PruneStats(ctx)
		return err
	}}}
}

// PruneStats deletes queue-metric samples and worker statistics older than
// the retention setting and returns how many rows went.
func (a *App) PruneStats(ctx context.Context) (int64, error) {
	if a.Cfg.StatsRetention <= 0 {
		return 0, nil
	}
	cutoff := a.Deps.Now().Add(-time.Duration(a.Cfg.StatsRetention))
	n, err := a.DB.PruneStats(ctx, cutoff.UnixMilli())
	if n > 0 {
		a.Log.Info("pruned old monitoring samples", "rows", n, "before", cutoff.UTC().Format(time.RFC3339))
	}
	return n, err
}
