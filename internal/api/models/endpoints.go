// Package models serves the models.* operations: the records of what
// training produces, their metadata, publishing (with the creating task)
// and the rules for deleting a model other records point at.
package models

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the models operations. Minimum versions are the
// reference's; update_for_task and get_by_task_id serve every version.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d: d}
	r.Add(
		rpc.Endpoint{Name: "models.create", Access: rpc.Write, Handler: rpc.Typed(s.create)},
		rpc.Endpoint{Name: "models.edit", Access: rpc.Write, Handler: rpc.Typed(s.edit)},
		rpc.Endpoint{Name: "models.update", Access: rpc.Write, Handler: rpc.Typed(s.update)},
		rpc.Endpoint{Name: "models.update_for_task", Access: rpc.Write, Handler: rpc.Typed(s.updateForTask)},
		rpc.Endpoint{Name: "models.update_tags", MinVersion: "2.27", Access: rpc.Write, Handler: rpc.Typed(s.updateTags)},
		rpc.Endpoint{Name: "models.get_by_id", Access: rpc.Read, Handler: rpc.Typed(s.getByID)},
		rpc.Endpoint{Name: "models.get_by_task_id", Access: rpc.Read, Handler: rpc.Typed(s.getByTaskID)},
		rpc.Endpoint{Name: "models.get_all", Access: rpc.Read, Handler: rpc.Typed(s.getAll)},
		rpc.Endpoint{Name: "models.get_all_ex", Access: rpc.Read, Handler: rpc.Typed(s.getAllEx)},
		rpc.Endpoint{Name: "models.get_by_id_ex", MinVersion: "2.11", Access: rpc.Read, Handler: rpc.Typed(s.getByIDEx)},
		rpc.Endpoint{Name: "models.get_frameworks", MinVersion: "2.8", Access: rpc.Read, Handler: rpc.Typed(s.getFrameworks)},
		rpc.Endpoint{Name: "models.add_or_update_metadata", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.addOrUpdateMetadata)},
		rpc.Endpoint{Name: "models.delete_metadata", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.deleteMetadata)},
		rpc.Endpoint{Name: "models.delete", Access: rpc.Write, Handler: rpc.Typed(s.delete)},
		rpc.Endpoint{Name: "models.delete_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.deleteMany)},
		rpc.Endpoint{Name: "models.archive_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.archiveMany)},
		rpc.Endpoint{Name: "models.unarchive_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.unarchiveMany)},
		rpc.Endpoint{Name: "models.publish_many", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.publishMany)},
		rpc.Endpoint{Name: "models.set_ready", Access: rpc.Write, Handler: rpc.Typed(s.setReady)},
		rpc.Endpoint{Name: "models.move", MinVersion: "2.12", Access: rpc.Write, Handler: rpc.Typed(s.move)},
		rpc.Endpoint{Name: "models.make_public", MinVersion: "2.9", Access: rpc.Write, Handler: rpc.Typed(s.makePublic)},
		rpc.Endpoint{Name: "models.make_private", MinVersion: "2.9", Access: rpc.Write, Handler: rpc.Typed(s.makePrivate)},
	)
}

type service struct{ d *api.Deps }
