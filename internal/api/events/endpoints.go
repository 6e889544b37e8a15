// Package events serves the events.* operations.
package events

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the events operations.
func Register(r *rpc.Registry, d *api.Deps) {
	r.Add()
}
