// Package system serves the auth, login, debug and users
// operations: logging in, tokens, and who the caller is.
package system

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the operations of this package.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d}
	r.Add(
		rpc.Endpoint{Name: "auth.login", Handler: rpc.Typed(s.login)},
		rpc.Endpoint{Name: "auth.logout", MinVersion: "2.2", Handler: rpc.Typed(s.logout)},
		rpc.Endpoint{Name: "debug.ping", Auth: rpc.AuthNone, Handler: s.ping},
		rpc.Endpoint{Name: "login.supported_modes", Auth: rpc.AuthOptional, Handler: rpc.Typed(s.supportedModes)},
		rpc.Endpoint{Name: "login.logout", MinVersion: "2.13", Auth: rpc.AuthOptional, Handler: rpc.Typed(s.logout)},
		rpc.Endpoint{Name: "users.get_current_user", Handler: rpc.Typed(s.currentUser)},
	)
}

type service struct{ d *api.Deps }
