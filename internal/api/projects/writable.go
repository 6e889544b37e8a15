package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"

	projectdom "github.com/trove-ml/trove/internal/projects"
)

// apiNotFound is the not-found error of a project id.
func apiNotFound(err error, id string) error {
	return domain.NotFound(err, apierr.InvalidProjectID(id))
}

// loadWritable loads a project of the caller's company for writing (see
// projects.LoadWritable).
func (s *service) loadWritable(ctx context.Context, q store.Querier, c *rpc.Call, id string) (*store.Project, error) {
	return projectdom.LoadWritable(ctx, &s.d.Env, q, c.Company(), id)
}
