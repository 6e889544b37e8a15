package mlflow

import (
	"context"
	"log/slog"
	"time"

	"github.com/trove-ml/trove/internal/domain"
)

// latestSyncEvery is how often the latest-value rows catch up with the
// runs' documents in the background; a search by metrics catches up
// first anyway. A longer period rewrites a busy run's rows less often (a
// run reporting every 2 s: once in 15 batches).
const latestSyncEvery = 30 * time.Second

// Jobs are the MLflow API's background work (run by internal/app): the
// latest metric values of the runs written since the last sync, copied
// from their documents into the table searches read.
func Jobs(env *domain.Env) []domain.Job {
	return []domain.Job{{Name: "mlflow latest metrics", Every: latestSyncEvery, Exclusive: true,
		Run: func(ctx context.Context, _ *slog.Logger) error {
			return env.DB.SyncMarkedLatestMetrics(ctx, SyncLatestRuns)
		}}}
}
