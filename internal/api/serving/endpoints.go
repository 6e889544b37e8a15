// Package serving serves the serving.* operations: clearml-serving
// containers register and report, and the web app reads their endpoints
// and charts.
package serving

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the serving operations.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d}
	r.Add(
		rpc.Endpoint{Name: "serving.register_container", MinVersion: "2.31", Access: rpc.Write, Handler: rpc.Typed(s.registerContainer)},
		rpc.Endpoint{Name: "serving.unregister_container", MinVersion: "2.31", Access: rpc.Write, Handler: rpc.Typed(s.unregisterContainer)},
		rpc.Endpoint{Name: "serving.container_status_report", MinVersion: "2.31", Access: rpc.Write, Handler: rpc.Typed(s.statusReport)},
		rpc.Endpoint{Name: "serving.get_endpoints", MinVersion: "2.31", Access: rpc.Read, Handler: rpc.Typed(s.getEndpoints)},
		rpc.Endpoint{Name: "serving.get_loading_instances", MinVersion: "2.31", Access: rpc.Read, Handler: rpc.Typed(s.getLoadingInstances)},
		rpc.Endpoint{Name: "serving.get_endpoint_details", MinVersion: "2.31", Access: rpc.Read, Handler: rpc.Typed(s.getEndpointDetails)},
		rpc.Endpoint{Name: "serving.get_endpoint_metrics_history", MinVersion: "2.31", Access: rpc.Read, Handler: rpc.Typed(s.getMetricsHistory)},
	)
}

type service struct{ d *api.Deps }
