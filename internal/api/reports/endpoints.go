// Package reports serves the reports.* operations: reports are tasks of
// type report (markdown with embedded charts) kept in hidden ".reports"
// projects. The rules live in internal/reports.
package reports

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the reports operations.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d: d}
	r.Add(
		rpc.Endpoint{Name: "reports.create", MinVersion: "2.23", Access: rpc.Write, Handler: rpc.Typed(s.create)},
		rpc.Endpoint{Name: "reports.update", MinVersion: "2.23", Access: rpc.Write, Handler: rpc.Typed(s.update)},
		rpc.Endpoint{Name: "reports.move", MinVersion: "2.23", Access: rpc.Write, Handler: rpc.Typed(s.move)},
		rpc.Endpoint{Name: "reports.publish", MinVersion: "2.23", Access: rpc.Write, Handler: rpc.Typed(s.publish)},
		rpc.Endpoint{Name: "reports.archive", MinVersion: "2.23", Access: rpc.Write, Handler: rpc.Typed(s.archive)},
		rpc.Endpoint{Name: "reports.unarchive", MinVersion: "2.23", Access: rpc.Write, Handler: rpc.Typed(s.unarchive)},
		rpc.Endpoint{Name: "reports.delete", MinVersion: "2.23", Access: rpc.Write, Handler: rpc.Typed(s.delete)},
		rpc.Endpoint{Name: "reports.get_all_ex", MinVersion: "2.23", Access: rpc.Read, Handler: rpc.Typed(s.getAllEx)},
		rpc.Endpoint{Name: "reports.get_task_data", MinVersion: "2.23", Access: rpc.Read, Handler: rpc.Typed(s.getTaskData)},
		rpc.Endpoint{Name: "reports.get_tags", MinVersion: "2.23", Access: rpc.Read, Handler: rpc.Typed(s.getTags)},
	)
}

type service struct{ d *api.Deps }
