// Package server serves the server.* operations: the server's version,
// the usage-statistics opt-in, the usage report and the configuration.
package server

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/rpc"
)

// admins are the roles that may read the usage report and configuration:
// the reference's root and system, and Trove's admin (its operator, who
// has no root key).
var admins = auth.Privileged

// Register adds the server operations.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d}
	r.Add(
		rpc.Endpoint{Name: "server.info", Auth: rpc.AuthNone, Handler: rpc.Typed(s.info)},
		rpc.Endpoint{Name: "server.report_stats_option", MinVersion: "2.4", Handler: rpc.Typed(s.reportStatsOption)},
		rpc.Endpoint{Name: "server.get_stats", Roles: admins, Handler: rpc.Typed(s.getStats)},
		rpc.Endpoint{Name: "server.config", Roles: admins, Handler: rpc.Typed(s.config)},
	)
}

type service struct{ d *api.Deps }

type empty struct{}
