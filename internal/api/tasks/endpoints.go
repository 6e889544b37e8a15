// Package tasks serves the tasks.* operations: creating, reading and
// editing tasks, their hyper parameters, configuration, artifacts and
// models, and the state operations of internal/taskdom.
package tasks

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// Register adds the tasks operations.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d: d}
	r.Add(
		rpc.Endpoint{Name: "tasks.create", Access: rpc.Write, Handler: rpc.Typed(s.create)},
		rpc.Endpoint{Name: "tasks.validate", Access: rpc.Read, Handler: rpc.Typed(s.validate)},
		rpc.Endpoint{Name: "tasks.clone", MinVersion: "2.5", Access: rpc.Write, Handler: rpc.Typed(s.clone)},
		rpc.Endpoint{Name: "tasks.get_by_id", Access: rpc.Read, Handler: rpc.Typed(s.getByID)},
		rpc.Endpoint{Name: "tasks.get_all", Access: rpc.Read, Handler: rpc.Typed(s.getAll)},
		rpc.Endpoint{Name: "tasks.get_all_ex", Access: rpc.Read, Handler: rpc.Typed(s.getAllEx)},
		rpc.Endpoint{Name: "tasks.get_by_id_ex", MinVersion: "2.11", Access: rpc.Read, Handler: rpc.Typed(s.getByIDEx)},
		rpc.Endpoint{Name: "tasks.get_types", MinVersion: "2.8", Access: rpc.Read, Handler: rpc.Typed(s.getTypes)},
		rpc.Endpoint{Name: "tasks.get_hyper_params", MinVersion: "2.9", Access: rpc.Read, Handler: rpc.Typed(s.getHyperParams)},
		rpc.Endpoint{Name: "tasks.edit_hyper_params", MinVersion: "2.9", Access: rpc.Write, Handler: rpc.Typed(s.editHyperParams)},
		rpc.Endpoint{Name: "tasks.delete_hyper_params", MinVersion: "2.9", Access: rpc.Write, Handler: rpc.Typed(s.deleteHyperParams)},
		rpc.Endpoint{Name: "tasks.get_configurations", MinVersion: "2.9", Access: rpc.Read, Handler: rpc.Typed(s.getConfigurations)},
		rpc.Endpoint{Name: "tasks.get_configuration_names", MinVersion: "2.9", Access: rpc.Read, Handler: rpc.Typed(s.getConfigurationNames)},
		rpc.Endpoint{Name: "tasks.edit_configuration", MinVersion: "2.9", Access: rpc.Write, Handler: rpc.Typed(s.editConfiguration)},
		rpc.Endpoint{Name: "tasks.delete_configuration", MinVersion: "2.9", Access: rpc.Write, Handler: rpc.Typed(s.deleteConfiguration)},
		rpc.Endpoint{Name: "tasks.edit", Access: rpc.Write, Handler: rpc.Typed(s.edit)},
		rpc.Endpoint{Name: "tasks.update", Access: rpc.Write, Handler: rpc.Typed(s.update)},
		rpc.Endpoint{Name: "tasks.update_batch", Access: rpc.Write, Handler: s.updateBatch},
		rpc.Endpoint{Name: "tasks.set_requirements", Access: rpc.Write, Handler: rpc.Typed(s.setRequirements)},
		rpc.Endpoint{Name: "tasks.ping", Access: rpc.Write, Handler: rpc.Typed(s.ping)},
		rpc.Endpoint{Name: "tasks.move", MinVersion: "2.12", Access: rpc.Write, Handler: rpc.Typed(s.move)},
		rpc.Endpoint{Name: "tasks.make_public", MinVersion: "2.9", Access: rpc.Write, Handler: rpc.Typed(s.makePublic)},
		rpc.Endpoint{Name: "tasks.make_private", MinVersion: "2.9", Access: rpc.Write, Handler: rpc.Typed(s.makePrivate)},
		rpc.Endpoint{Name: "tasks.add_or_update_artifacts", MinVersion: "2.10", Access: rpc.Write, Handler: rpc.Typed(s.addOrUpdateArtifacts)},
		rpc.Endpoint{Name: "tasks.delete_artifacts", MinVersion: "2.10", Access: rpc.Write, Handler: rpc.Typed(s.deleteArtifacts)},
		rpc.Endpoint{Name: "tasks.add_or_update_model", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.addOrUpdateModel)},
		rpc.Endpoint{Name: "tasks.delete_models", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.deleteModels)},
		rpc.Endpoint{Name: "tasks.started", Access: rpc.Write, Handler: rpc.Typed(s.started)},
		rpc.Endpoint{Name: "tasks.stop", Access: rpc.Write, Handler: rpc.Typed(s.single(taskdom.Stop))},
		rpc.Endpoint{Name: "tasks.stop_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.many(taskdom.Stop))},
		rpc.Endpoint{Name: "tasks.stopped", Access: rpc.Write, Handler: rpc.Typed(s.single(taskdom.MarkStopped))},
		rpc.Endpoint{Name: "tasks.completed", MinVersion: "2.2", Access: rpc.Write, Handler: rpc.Typed(s.completed)},
		rpc.Endpoint{Name: "tasks.failed", Access: rpc.Write, Handler: rpc.Typed(s.single(taskdom.MarkFailed))},
		rpc.Endpoint{Name: "tasks.close", Access: rpc.Write, Handler: rpc.Typed(s.single(taskdom.Close))},
		rpc.Endpoint{Name: "tasks.publish", Access: rpc.Write, Handler: rpc.Typed(s.publish)},
		rpc.Endpoint{Name: "tasks.publish_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.publishMany)},
		rpc.Endpoint{Name: "tasks.enqueue", Access: rpc.Write, Handler: rpc.Typed(s.enqueue)},
		rpc.Endpoint{Name: "tasks.enqueue_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.enqueueMany)},
		rpc.Endpoint{Name: "tasks.dequeue", Access: rpc.Write, Handler: rpc.Typed(s.dequeue)},
		rpc.Endpoint{Name: "tasks.dequeue_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.dequeueMany)},
		rpc.Endpoint{Name: "tasks.reset", Access: rpc.Write, Handler: rpc.Typed(s.reset)},
		rpc.Endpoint{Name: "tasks.reset_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.resetMany)},
		rpc.Endpoint{Name: "tasks.delete", Access: rpc.Write, Handler: rpc.Typed(s.delete)},
		rpc.Endpoint{Name: "tasks.delete_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.deleteMany)},
		rpc.Endpoint{Name: "tasks.archive", MinVersion: "2.12", Access: rpc.Write, Handler: rpc.Typed(s.archive)},
		rpc.Endpoint{Name: "tasks.archive_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.archiveMany)},
		rpc.Endpoint{Name: "tasks.unarchive_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.unarchiveMany)},
		rpc.Endpoint{Name: "tasks.update_tags", MinVersion: "2.27", Access: rpc.Write, Handler: rpc.Typed(s.updateTags)},
		rpc.Endpoint{Name: "tasks.edit_runtime", MinVersion: "2.34", Access: rpc.Write, Handler: rpc.Typed(s.editRuntime)},
	)
}

type service struct{ d *api.Deps }
