// Package queues serves the queues.* operations.
package queues

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the queues operations.
func Register(r *rpc.Registry, d *api.Deps) {
	r.Add()
}
