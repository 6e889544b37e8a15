package models

import (
	"context"

	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"

	modeldom "github.com/trove-ml/trove/internal/models"
)

// actor is the caller of c as the models domain names it.
func actor(c *rpc.Call) modeldom.Actor {
	return modeldom.Actor{Company: c.Company(), User: c.User()}
}

// loadWritable loads a model of the caller's company for writing (see
// models.LoadWritable).
func (s *service) loadWritable(ctx context.Context, q store.Querier, company, id string) (*store.Model, error) {
	return modeldom.LoadWritable(ctx, &s.d.Env, q, company, id)
}
