// Package storage serves the storage.* operations: the storage
// credentials of a company, which the web app's settings page edits.
package storage

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the storage operations.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d}
	r.Add(
		rpc.Endpoint{Name: "storage.get_settings", MinVersion: "2.22", Access: rpc.Read, Handler: rpc.Typed(s.getSettings)},
		rpc.Endpoint{Name: "storage.set_settings", MinVersion: "2.22", Access: rpc.Admin, Handler: rpc.Typed(s.setSettings)},
		rpc.Endpoint{Name: "storage.reset_settings", MinVersion: "2.22", Access: rpc.Admin, Handler: rpc.Typed(s.resetSettings)},
	)
}

type service struct{ d *api.Deps }
