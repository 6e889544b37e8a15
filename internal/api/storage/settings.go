package storage

import (
	"context"
	"slices"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/settings"
)

type empty struct{}

type getResponse struct {
	Settings settingsWire `json:"settings"`
}

func (s *service) getSettings(ctx context.Context, c *rpc.Call, _ *empty) (*getResponse, error) {
	role := ""
	if c.Identity != nil {
		role = c.Identity.Role
	}
	st, err := settings.StorageFor(ctx, &s.d.Env, c.Company(), role)
	if err != nil {
		return nil, err
	}
	return &getResponse{Settings: toWire(st)}, nil
}

type setRequest struct {
	AWS    *awsIn    `json:"aws"`
	Google *googleIn `json:"google"`
	Azure  *azureIn  `json:"azure"`
}

func (r *setRequest) Validate() error {
	if r.Azure == nil {
		return nil
	}
	for i, c := range r.Azure.Containers {
		if c.AccountName == "" {
			return apierr.Required("azure", "containers", i, "account_name")
		}
		if c.AccountKey == "" {
			return apierr.Required("azure", "containers", i, "account_key")
		}
	}
	return nil
}

type updatedResponse struct {
	Updated int `json:"updated"`
}

func (s *service) setSettings(ctx context.Context, c *rpc.Call, req *setRequest) (*updatedResponse, error) {
	n, err := settings.SetStorage(ctx, &s.d.Env, c.Company(), req.patch())
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}

type resetRequest struct {
	Keys []string `json:"keys"`
}

func (r *resetRequest) Validate() error {
	for _, k := range r.Keys {
		if !slices.Contains(settings.StorageSections, k) {
			return apierr.Validation("keys", "%q is not one of %v", k, settings.StorageSections)
		}
	}
	return nil
}

func (s *service) resetSettings(ctx context.Context, c *rpc.Call, req *resetRequest) (*updatedResponse, error) {
	n, err := settings.ResetStorage(ctx, &s.d.Env, c.Company(), req.Keys)
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}
