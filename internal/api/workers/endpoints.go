// Package workers serves the workers.* operations: machines (agents) that
// register, report their status and statistics, and take tasks from
// queues. Workers and their statistics live in the database, so a restart
// keeps them and several Trove processes agree.
package workers

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the workers operations (the expired-worker sweep is
// internal/workers' Jobs, run by internal/app).
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d: d}
	r.Add(
		rpc.Endpoint{Name: "workers.register", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.register)},
		rpc.Endpoint{Name: "workers.unregister", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.unregister)},
		rpc.Endpoint{Name: "workers.status_report", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.statusReport)},
		rpc.Endpoint{Name: "workers.get_all", MinVersion: "2.4", Access: rpc.Read, Handler: rpc.Typed(s.getAll)},
		rpc.Endpoint{Name: "workers.get_count", Access: rpc.Read, Handler: rpc.Typed(s.getCount)},
		rpc.Endpoint{Name: "workers.get_metric_keys", MinVersion: "2.4", Access: rpc.Read, Handler: rpc.Typed(s.getMetricKeys)},
		rpc.Endpoint{Name: "workers.get_stats", MinVersion: "2.4", Access: rpc.Read, Handler: rpc.Typed(s.getStats)},
		rpc.Endpoint{Name: "workers.get_activity_report", MinVersion: "2.4", Access: rpc.Read, Handler: rpc.Typed(s.getActivityReport)},
	)
}

type service struct{ d *api.Deps }
