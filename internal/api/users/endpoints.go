// Package users serves users.*: the caller's own user, the users of its
// company, profile updates and web app preferences.
package users

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the operations of this package.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d}
	r.Add(
		rpc.Endpoint{Name: "users.get_current_user", Access: rpc.Read, Handler: rpc.Typed(s.currentUser)},
		rpc.Endpoint{Name: "users.get_by_id", Access: rpc.Read, Handler: rpc.Typed(s.getByID)},
		rpc.Endpoint{Name: "users.get_all", Access: rpc.Read, Handler: rpc.Typed(s.getAll)},
		rpc.Endpoint{Name: "users.get_all_ex", Access: rpc.Read, Handler: rpc.Typed(s.getAllEx)},
		rpc.Endpoint{Name: "users.update", Access: rpc.Write, Handler: rpc.Typed(s.update)},
		rpc.Endpoint{Name: "users.delete", Access: rpc.Root, Handler: rpc.Typed(s.delete)},
		rpc.Endpoint{Name: "users.get_preferences", Access: rpc.Read, Handler: rpc.Typed(s.getPreferences)},
		rpc.Endpoint{Name: "users.set_preferences", Access: rpc.Own, Handler: rpc.Typed(s.setPreferences)},
	)
}

type service struct{ d *api.Deps }
