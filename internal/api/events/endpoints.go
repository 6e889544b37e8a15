// Package events serves the events.* operations: reporting scalars,
// vectors, plots, debug images and console logs, and every read the SDK
// and the web UI make of them (histograms, logs, plots and image browsing).
// The rules live in internal/events, the SQL in internal/store/events*.go.
package events

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the events operations and installs the event deleter used
// by task and model deletion.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d: d, ing: &events.Ingester{DB: d.DB, Now: d.Now}}
	r.Add(
		rpc.Endpoint{Name: "events.add", Handler: s.add},
		rpc.Endpoint{Name: "events.add_batch", Handler: s.addBatch, LenientLines: true},
	)
}

type service struct {
	d   *api.Deps
	ing *events.Ingester
}
