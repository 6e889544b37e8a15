// Package system serves the auth, login and debug operations: logging
// in, tokens, access keys and the administration of users.
package system

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the operations of this package.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d}
	r.Add(
		rpc.Endpoint{Name: "auth.login", Access: rpc.Own, Handler: rpc.Typed(s.login)},
		rpc.Endpoint{Name: "auth.logout", MinVersion: "2.2", Access: rpc.Own, Handler: rpc.Typed(s.logout)},
		rpc.Endpoint{Name: "debug.ping", Auth: rpc.AuthNone, Handler: s.ping},
		rpc.Endpoint{Name: "login.supported_modes", Auth: rpc.AuthOptional, Access: rpc.Read, Handler: rpc.Typed(s.supportedModes)},
		rpc.Endpoint{Name: "login.logout", MinVersion: "2.13", Auth: rpc.AuthOptional, Access: rpc.Own, Handler: rpc.Typed(s.logout)},
		rpc.Endpoint{Name: "auth.create_credentials", Access: rpc.Write, Handler: rpc.Typed(s.createCredentials)},
		rpc.Endpoint{Name: "auth.get_credentials", Access: rpc.Read, Handler: rpc.Typed(s.getCredentials)},
		rpc.Endpoint{Name: "auth.edit_credentials", Access: rpc.Write, Handler: rpc.Typed(s.editCredentials)},
		rpc.Endpoint{Name: "auth.revoke_credentials", Access: rpc.Write, Handler: rpc.Typed(s.revokeCredentials)},
		rpc.Endpoint{Name: "auth.create_user", Access: rpc.Admin, Handler: rpc.Typed(s.createUser)},
		rpc.Endpoint{Name: "auth.edit_user", Access: rpc.Admin, Handler: rpc.Typed(s.editUser)},
	)
}

type service struct{ d *api.Deps }
