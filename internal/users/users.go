package users

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Get loads a user of company; the system role reaches every company.
func Get(ctx context.Context, env *domain.Env, caller *auth.Identity, id string) (store.User, error) {
	u, err := env.DB.GetUser(ctx, id)
	if err != nil {
		return u, domain.NotFound(err, apierr.InvalidUserID(id))
	}
	if u.Company != caller.CompanyID && caller.Role != auth.RoleSystem {
		return store.User{}, apierr.InvalidUserID(id)
	}
	return u, nil
}

// Current loads the calling user (400 invalid user when it is gone).
func Current(ctx context.Context, env *domain.Env, caller *auth.Identity) (store.User, error) {
	u, err := env.DB.GetUser(ctx, caller.UserID)
	if err != nil {
		return u, domain.NotFound(err, apierr.InvalidUser(caller.UserID))
	}
	return u, nil
}

// Profile is the part of a user users.update changes; nil fields are left
// alone.
type Profile struct {
	Name, GivenName, FamilyName, Avatar *string
}

// Update changes the profile of a user of the caller's company. A user
// changes its own profile; only a privileged role (auth.IsPrivileged)
// changes another user's. Another user's id, to anyone else, is answered
// as an unknown user.
func Update(ctx context.Context, env *domain.Env, caller *auth.Identity, id string, p Profile) (*domain.Update, error) {
	if id != caller.UserID && !auth.IsPrivileged(caller.Role) {
		return nil, apierr.InvalidUserID(id)
	}
	u, err := env.DB.GetUser(ctx, id)
	if err != nil || u.Company != caller.CompanyID {
		return nil, domain.NotFound(store.ErrNotFound, apierr.InvalidUserID(id))
	}
	fields := map[string]any{}
	set := func(name string, dst *string, v *string) {
		if v != nil && *v != *dst {
			*dst, fields[name] = *v, *v
		}
	}
	set("name", &u.Name, p.Name)
	set("given_name", &u.GivenName, p.GivenName)
	set("family_name", &u.FamilyName, p.FamilyName)
	set("avatar", &u.Avatar, p.Avatar)
	if len(fields) == 0 {
		return &domain.Update{Fields: fields}, nil
	}
	if err := env.DB.SaveUser(ctx, u); err != nil {
		return nil, domain.NotFound(err, apierr.InvalidUserID(id))
	}
	return &domain.Update{Updated: 1, Fields: fields}, nil
}

// Delete removes a user of the caller's company with its access keys;
// callers may not delete themselves, and only those administering the
// user may delete it (auth.CheckDeletable). The user's tokens stop
// working (auth's principal check finds no user).
func Delete(ctx context.Context, env *domain.Env, caller *auth.Identity, id string) error {
	if id == caller.UserID {
		return apierr.FieldsValue("cannot delete yourself").With("user", id)
	}
	if err := auth.CheckDeletable(ctx, env, caller, id); err != nil {
		return err
	}
	return domain.NotFound(env.DB.DeleteUser(ctx, caller.CompanyID, id), apierr.InvalidUserID(id))
}
