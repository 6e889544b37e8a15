// Package projects serves the projects.* operations: a hierarchy of
// projects named by "/" paths, with statistics over their tasks and models.
package projects

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the projects operations.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d: d}
	r.Add(
		rpc.Endpoint{Name: "projects.create", Access: rpc.Write, Handler: rpc.Typed(s.create)},
		rpc.Endpoint{Name: "projects.get_by_id", Access: rpc.Read, Handler: rpc.Typed(s.getByID)},
		rpc.Endpoint{Name: "projects.get_all", Access: rpc.Read, Handler: rpc.Typed(s.getAll)},
		rpc.Endpoint{Name: "projects.get_all_ex", Access: rpc.Read, Handler: rpc.Typed(s.getAllEx)},
		rpc.Endpoint{Name: "projects.update", Access: rpc.Write, Handler: rpc.Typed(s.update)},
		rpc.Endpoint{Name: "projects.move", Access: rpc.Write, Handler: rpc.Typed(s.move)},
		rpc.Endpoint{Name: "projects.merge", Access: rpc.Write, Handler: rpc.Typed(s.merge)},
		rpc.Endpoint{Name: "projects.delete", Access: rpc.Write, Handler: rpc.Typed(s.delete)},
		rpc.Endpoint{Name: "projects.validate_delete", Access: rpc.Read, Handler: rpc.Typed(s.validateDelete)},
		rpc.Endpoint{Name: "projects.make_public", MinVersion: "2.9", Access: rpc.Write, Handler: rpc.Typed(s.makePublic)},
		rpc.Endpoint{Name: "projects.make_private", MinVersion: "2.9", Access: rpc.Write, Handler: rpc.Typed(s.makePrivate)},
		rpc.Endpoint{Name: "projects.get_task_tags", MinVersion: "2.8", Access: rpc.Read, Handler: rpc.Typed(s.getTaskTags)},
		rpc.Endpoint{Name: "projects.get_model_tags", MinVersion: "2.8", Access: rpc.Read, Handler: rpc.Typed(s.getModelTags)},
		rpc.Endpoint{Name: "projects.get_task_parents", MinVersion: "2.12", Access: rpc.Read, Handler: rpc.Typed(s.getTaskParents)},
		rpc.Endpoint{Name: "projects.get_hyper_parameters", MinVersion: "2.9", Access: rpc.Read, Handler: rpc.Typed(s.getHyperParameters)},
		rpc.Endpoint{Name: "projects.get_hyperparam_values", MinVersion: "2.13", Access: rpc.Read, Handler: rpc.Typed(s.getHyperparamValues)},
		rpc.Endpoint{Name: "projects.get_unique_metric_variants", Access: rpc.Read, Handler: rpc.Typed(s.getUniqueMetricVariants)},
		rpc.Endpoint{Name: "projects.get_user_names", MinVersion: "2.26", Access: rpc.Read, Handler: rpc.Typed(s.getUserNames)},
		rpc.Endpoint{Name: "projects.get_project_tags", MinVersion: "2.17", Access: rpc.Read, Handler: rpc.Typed(s.getProjectTags)},
		rpc.Endpoint{Name: "projects.get_model_metadata_keys", MinVersion: "2.17", Access: rpc.Read, Handler: rpc.Typed(s.getModelMetadataKeys)},
		rpc.Endpoint{Name: "projects.get_model_metadata_values", MinVersion: "2.17", Access: rpc.Read, Handler: rpc.Typed(s.getModelMetadataValues)},
	)
}

type service struct{ d *api.Deps }
