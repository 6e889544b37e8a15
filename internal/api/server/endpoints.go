// Package server serves the server.* operations: the server's version,
// the usage-statistics opt-in, the usage report and the configuration.
package server

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the server operations. The usage report and the
// configuration are for the privileged roles (the reference's root and
// system, and Trove's admin, its operator, who has no root key); so is
// changing the usage-statistics opt-in, which every role reads.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d}
	r.Add(
		rpc.Endpoint{Name: "server.info", Access: rpc.Read, Handler: rpc.Typed(s.info)},
		rpc.Endpoint{Name: "server.report_stats_option", MinVersion: "2.4", Access: rpc.ReadOrSet("enabled", auth.Privileged), Handler: rpc.Typed(s.reportStatsOption)},
		rpc.Endpoint{Name: "server.get_stats", Access: rpc.AdminRead, Handler: rpc.Typed(s.getStats)},
		rpc.Endpoint{Name: "server.config", Access: rpc.AdminRead, Handler: rpc.Typed(s.config)},
	)
}

type service struct{ d *api.Deps }

type empty struct{}
