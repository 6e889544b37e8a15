package users

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	userdom "github.com/trove-ml/trove/internal/users"
)

type updateRequest struct {
	User       string  `json:"user" required:"true"`
	Name       *string `json:"name"`
	GivenName  *string `json:"given_name"`
	FamilyName *string `json:"family_name"`
	Avatar     *string `json:"avatar"`
}

func (r *updateRequest) Validate() error {
	if r.Name != nil && *r.Name == "" {
		return apierr.Validation("name", "must not be empty")
	}
	return nil
}

// update changes a profile: the caller's own, or (for an admin) any of its
// company's (the rule is the domain's).
func (s *service) update(ctx context.Context, c *rpc.Call, req *updateRequest) (*api.UpdateResult, error) {
	up, err := userdom.Update(ctx, &s.d.Env, c.Identity, req.User,
		userdom.Profile{Name: req.Name, GivenName: req.GivenName, FamilyName: req.FamilyName, Avatar: req.Avatar})
	if err != nil {
		return nil, err
	}
	return api.Updated(up), nil
}

type deleteRequest struct {
	User string `json:"user" required:"true"`
}

func (s *service) delete(ctx context.Context, c *rpc.Call, req *deleteRequest) (*empty, error) {
	if err := userdom.Delete(ctx, &s.d.Env, c.Identity, req.User); err != nil {
		return nil, err
	}
	s.d.Auth.ForgetUser(req.User)
	return &empty{}, nil
}

type preferencesResponse struct {
	Preferences map[string]any `json:"preferences"`
}

func (s *service) getPreferences(ctx context.Context, c *rpc.Call, _ *empty) (*preferencesResponse, error) {
	p, err := userdom.Preferences(ctx, &s.d.Env, c.Company(), c.User())
	if err != nil {
		return nil, err
	}
	return &preferencesResponse{Preferences: p}, nil
}

// setPreferencesRequest: the app sends its own user id in "user" too; the
// preferences changed are always the caller's. They are decoded keeping
// numbers as written.
type setPreferencesRequest struct {
	Preferences json.RawMessage `json:"preferences" required:"true"`
	// ReturnUpdated (2.33, default true): false leaves fields empty.
	ReturnUpdated *bool `json:"return_updated"`
	changes       map[string]any
}

func (r *setPreferencesRequest) Validate() error {
	dec := json.NewDecoder(bytes.NewReader(r.Preferences))
	dec.UseNumber()
	if err := dec.Decode(&r.changes); err != nil || r.changes == nil {
		return apierr.Validation("preferences", "must be an object")
	}
	return nil
}

func (s *service) setPreferences(ctx context.Context, c *rpc.Call, req *setPreferencesRequest) (*api.UpdateResult, error) {
	up, err := userdom.SetPreferences(ctx, &s.d.Env, c.Company(), c.User(), req.changes)
	if err != nil {
		return nil, err
	}
	res := api.Updated(up)
	if req.ReturnUpdated != nil && !*req.ReturnUpdated {
		res.Fields = map[string]any{}
	}
	return res, nil
}
