// Package tasks serves the tasks.* operations.
package tasks

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the tasks operations.
func Register(r *rpc.Registry, d *api.Deps) {
	r.Add()
}
