package tasks

import (
	"context"
	"errors"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Watchdog settings: how often it runs and how long a running task may
// stay silent before it is stopped.
const (
	WatchdogPeriod  = 900 * time.Second
	SilentThreshold = 7200 * time.Second
	// SilentReason is the status reason and message of a forced stop.
	SilentReason = "Forced stop (non-responsive)"
)

// StopSilentTasks stops every in_progress task whose last_update is older
// than threshold and returns how many it stopped. Each task is changed in
// its own transaction, conditional on its status, so a task that reports
// meanwhile is left alone.
func StopSilentTasks(ctx context.Context, d *domain.Env, threshold time.Duration) (int, error) {
	cutoff := d.Now().Add(-threshold).UnixMilli()
	ids, err := d.DB.TaskIDsWithStatusBefore(ctx, d.DB.Read(), InProgress, cutoff)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		err := d.DB.Tx(ctx, func(q store.Querier) error {
			t, err := d.DB.Tasks().GetForUpdate(ctx, q, id)
			if err != nil {
				return err
			}
			if t.Status != InProgress || t.LastUpdate.UnixMilli() >= cutoff {
				return errSkip
			}
			t.Normalize()
			_, err = SetStatus(ctx, d, q, t.User, t, Change{To: Stopped, Force: true, StatusReason: SilentReason, StatusMessage: SilentReason})
			return err
		})
		switch {
		case err == nil:
			n++
		case errors.Is(err, errSkip), errors.Is(err, store.ErrNotFound), apierr.Is(err, 400, 121):
		default:
			return n, err
		}
	}
	return n, nil
}

var errSkip = errors.New("skip")
