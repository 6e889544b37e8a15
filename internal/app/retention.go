package app

import (
	"context"
	"time"
)

// retentionPeriod is how often old monitoring samples are pruned: each run
// then deletes only a few minutes' worth of rows.
const retentionPeriod = 10 * time.Minute

// scheduleRetention adds the pruning job unless samples are kept forever.
func (a *App) scheduleRetention() {
	if a.Cfg.StatsRetention <= 0 {
		return
	}
	a.Deps.Hooks.Every("stats retention", retentionPeriod, func(ctx context.Context) error {
		_, err := a.PruneStats(ctx)
		return err
	})
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
