package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type createRequest struct {
	Name        string       `json:"name" required:"true"`
	DisplayName *string      `json:"display_name"`
	Tags        []string     `json:"tags"`
	SystemTags  []string     `json:"system_tags"`
	Metadata    api.Metadata `json:"metadata"`
}

func (r *createRequest) Validate() error {
	if err := api.ValidateTags("tags", r.Tags); err != nil {
		return err
	}
	return api.ValidateTags("system_tags", r.SystemTags)
}

type createResponse struct {
	ID string `json:"id"`
}

func (s *service) create(ctx context.Context, c *rpc.Call, req *createRequest) (*createResponse, error) {
	n := queues.New{Name: req.Name, Tags: req.Tags, SystemTags: req.SystemTags, Metadata: req.Metadata.Items}
	if req.DisplayName != nil {
		n.DisplayName = *req.DisplayName
	}
	id, err := queues.Create(ctx, &s.d.Env, c.Company(), n)
	if err != nil {
		return nil, err
	}
	return &createResponse{ID: id}, nil
}

type updateRequest struct {
	Queue       string       `json:"queue" required:"true"`
	Name        *string      `json:"name"`
	DisplayName *string      `json:"display_name"`
	Tags        *[]string    `json:"tags"`
	SystemTags  *[]string    `json:"system_tags"`
	Metadata    api.Metadata `json:"metadata"`
}

func (r *updateRequest) Validate() error {
	if r.Tags != nil {
		if err := api.ValidateTags("tags", *r.Tags); err != nil {
			return err
		}
	}
	if r.SystemTags != nil {
		return api.ValidateTags("system_tags", *r.SystemTags)
	}
	return nil
}

func (s *service) update(ctx context.Context, c *rpc.Call, req *updateRequest) (*api.UpdateResult, error) {
	res, err := queues.Update(ctx, &s.d.Env, c.Company(), req.Queue, queues.Changes{Name: req.Name, DisplayName: req.DisplayName,
		Tags: req.Tags, SystemTags: req.SystemTags, Metadata: req.Metadata.Items, SetMetadata: req.Metadata.Set})
	if err != nil {
		return nil, err
	}
	return api.Updated(res), nil
}

type deleteRequest struct {
	Queue string `json:"queue" required:"true"`
	Force bool   `json:"force"`
}

type deleteResponse struct {
	Deleted int `json:"deleted"`
}

func (s *service) delete(ctx context.Context, c *rpc.Call, req *deleteRequest) (*deleteResponse, error) {
	if err := taskdom.DeleteQueue(ctx, &s.d.Env, c.Company(), c.User(), req.Queue, req.Force); err != nil {
		return nil, err
	}
	return &deleteResponse{Deleted: 1}, nil
}
