// Package queues serves the queues.* operations: FIFO queues of tasks that
// workers take their work from, with metadata and metrics.
package queues

import (
	"time"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the queues operations (the default queue and the metrics
// refresh are internal/queues' Jobs, run by internal/app).
func Register(r *rpc.Registry, d *api.Deps) {
	// d.Now may be replaced after start-up (tests fix the clock).
	s := &service{d: d, metrics: &queues.Metrics{DB: d.DB, Now: func() time.Time { return d.Now() }}}
	r.Add(
		rpc.Endpoint{Name: "queues.create", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.create)},
		rpc.Endpoint{Name: "queues.update", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.update)},
		rpc.Endpoint{Name: "queues.delete", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.delete)},
		rpc.Endpoint{Name: "queues.get_by_id", MinVersion: "2.4", Access: rpc.Read, Handler: rpc.Typed(s.getByID)},
		rpc.Endpoint{Name: "queues.get_all", MinVersion: "2.4", Access: rpc.Read, Handler: rpc.Typed(s.getAll)},
		rpc.Endpoint{Name: "queues.get_all_ex", MinVersion: "2.4", Access: rpc.Read, Handler: rpc.Typed(s.getAllEx)},
		rpc.Endpoint{Name: "queues.get_default", MinVersion: "2.4", Access: rpc.Read, Handler: rpc.Typed(s.getDefault)},
		rpc.Endpoint{Name: "queues.add_task", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.addTask)},
		rpc.Endpoint{Name: "queues.remove_task", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.removeTask)},
		rpc.Endpoint{Name: "queues.clear_queue", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.clearQueue)},
		rpc.Endpoint{Name: "queues.get_next_task", Access: rpc.Write, Handler: rpc.Typed(s.getNextTask)},
		rpc.Endpoint{Name: "queues.peek_task", MinVersion: "2.15", Access: rpc.Read, Handler: rpc.Typed(s.peekTask)},
		rpc.Endpoint{Name: "queues.get_num_entries", MinVersion: "2.15", Access: rpc.Read, Handler: rpc.Typed(s.getNumEntries)},
		rpc.Endpoint{Name: "queues.move_task_forward", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.moveForward)},
		rpc.Endpoint{Name: "queues.move_task_backward", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.moveBackward)},
		rpc.Endpoint{Name: "queues.move_task_to_front", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.moveToFront)},
		rpc.Endpoint{Name: "queues.move_task_to_back", MinVersion: "2.4", Access: rpc.Write, Handler: rpc.Typed(s.moveToBack)},
		rpc.Endpoint{Name: "queues.get_queue_metrics", MinVersion: "2.4", Access: rpc.Read, Handler: rpc.Typed(s.getQueueMetrics)},
		rpc.Endpoint{Name: "queues.add_or_update_metadata", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.addOrUpdateMetadata)},
		rpc.Endpoint{Name: "queues.delete_metadata", MinVersion: "2.13", Access: rpc.Write, Handler: rpc.Typed(s.deleteMetadata)},
	)
}

type service struct {
	d       *api.Deps
	metrics *queues.Metrics
}
