// Package workers serves the workers.* operations.
package workers

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the workers operations.
func Register(r *rpc.Registry, d *api.Deps) {
	r.Add()
}
