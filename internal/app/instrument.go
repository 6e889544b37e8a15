package app

import (
	"time"

	"github.com/trove-ml/trove/internal/metrics"
	"github.com/trove-ml/trove/internal/rpc"
)

// instrument creates the metrics and hooks them to the RPC server's call
// observer and the store's transactions.
func (a *App) instrument(srv *rpc.Server) {
	a.Metrics = metrics.New(a.DB, func() time.Time { return a.Deps.Now() })
	srv.Observe = func(f rpc.Finished) {
		a.Metrics.ObserveCall(f.Operation, f.Status, f.Duration, f.Result)
	}
	a.DB.ObserveTx(a.Metrics.ObserveTx)
}
