// Package models serves the models.* operations.
package models

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the models operations.
func Register(r *rpc.Registry, d *api.Deps) {
	r.Add()
}
