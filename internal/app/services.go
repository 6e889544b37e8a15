package app

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/api/events"
	"github.com/trove-ml/trove/internal/api/models"
	"github.com/trove-ml/trove/internal/api/organization"
	"github.com/trove-ml/trove/internal/api/pipelines"
	"github.com/trove-ml/trove/internal/api/projects"
	"github.com/trove-ml/trove/internal/api/queues"
	"github.com/trove-ml/trove/internal/api/reports"
	"github.com/trove-ml/trove/internal/api/server"
	"github.com/trove-ml/trove/internal/api/serving"
	"github.com/trove-ml/trove/internal/api/storage"
	"github.com/trove-ml/trove/internal/api/system"
	"github.com/trove-ml/trove/internal/api/tasks"
	"github.com/trove-ml/trove/internal/api/traces"
	"github.com/trove-ml/trove/internal/api/users"
	"github.com/trove-ml/trove/internal/api/workers"
	"github.com/trove-ml/trove/internal/rpc"
)

// registrars lists every service package; each registers its operations
// under their full names in its own endpoints.go.
var registrars = []func(*rpc.Registry, *api.Deps){
	system.Register,
	projects.Register,
	organization.Register,
	tasks.Register,
	models.Register,
	queues.Register,
	workers.Register,
	events.Register,
	users.Register,
	reports.Register,
	pipelines.Register,
	serving.Register,
	server.Register,
	storage.Register,
	traces.Register,
}

// NewRegistry builds the registry of all operations.
func NewRegistry(d *api.Deps) *rpc.Registry {
	r := rpc.NewRegistry()
	for _, reg := range registrars {
		reg(r, d)
	}
	api.FoldLegacyTags(r)
	return r
}
