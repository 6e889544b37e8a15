package queues

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// minNameLength is the shortest queue name (after trimming).
const minNameLength = 3

func checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if len([]rune(name)) < minNameLength {
		return "", apierr.DataValidation("queue name must be at least %d characters: name=%s", minNameLength, name)
	}
	return name, nil
}

func duplicateName(err error, name string) error {
	if errors.Is(err, store.ErrDuplicate) {
		return apierr.NotUnique("Queue with the same name already exists: name=%s", name)
	}
	return err
}

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
	name, err := checkName(req.Name)
	if err != nil {
		return nil, err
	}
	now := s.d.Time()
	qu := &store.Queue{ID: ids.New(), Company: c.Company(), Name: name, Created: now, LastUpdate: now,
		Tags: domain.SortedTags(req.Tags), SystemTags: domain.SortedTags(req.SystemTags), Metadata: req.Metadata.Items}
	if req.DisplayName != nil {
		qu.DisplayName = *req.DisplayName
	}
	err = s.d.DB.Tx(ctx, func(q store.Querier) error {
		return duplicateName(s.d.DB.Queues().Insert(ctx, q, qu), name)
	})
	if err != nil {
		return nil, err
	}
	return &createResponse{ID: qu.ID}, nil
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
	fields := map[string]any{}
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := queues.GetForUpdate(ctx, s.d.DB, q, c.Company(), req.Queue)
		if err != nil {
			return err
		}
		if req.Name != nil {
			if qu.Name, err = checkName(*req.Name); err != nil {
				return err
			}
			fields["name"] = qu.Name
		}
		if req.DisplayName != nil {
			qu.DisplayName = *req.DisplayName
			fields["display_name"] = qu.DisplayName
		}
		if req.Tags != nil {
			qu.Tags = domain.SortedTags(*req.Tags)
			fields["tags"] = qu.Tags
		}
		if req.SystemTags != nil {
			qu.SystemTags = domain.SortedTags(*req.SystemTags)
			fields["system_tags"] = qu.SystemTags
		}
		if req.Metadata.Set {
			qu.Metadata = req.Metadata.Items
			fields["metadata"] = qu.Metadata
		}
		if len(fields) == 0 {
			return nil
		}
		qu.LastUpdate = s.d.Time()
		fields["last_update"] = qu.LastUpdate
		return duplicateName(s.d.DB.Queues().Update(ctx, q, qu), qu.Name)
	})
	if err != nil {
		return nil, err
	}
	updated := 0
	if len(fields) > 0 {
		updated = 1
	}
	return &api.UpdateResult{Updated: updated, Fields: fields}, nil
}

type deleteRequest struct {
	Queue string `json:"queue" required:"true"`
	Force bool   `json:"force"`
}

type deleteResponse struct {
	Deleted int `json:"deleted"`
}

func (s *service) delete(ctx context.Context, c *rpc.Call, req *deleteRequest) (*deleteResponse, error) {
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := queues.GetForUpdate(ctx, s.d.DB, q, c.Company(), req.Queue)
		if err != nil {
			return err
		}
		load, err := s.d.DB.QueueLoadOf(ctx, q, qu.ID)
		if err != nil {
			return err
		}
		if load.Entries > 0 {
			if !req.Force {
				return apierr.QueueNotEmpty(load.Entries).With("queue", qu.ID)
			}
			// Only the entries this call removes give their tasks back
			// (one handed out meanwhile belongs to its worker).
			tasks, err := s.d.DB.ClearQueue(ctx, q, qu.ID, s.d.Time())
			if err != nil {
				return err
			}
			if _, err := taskdom.Revert(ctx, &s.d.Env, q, c.Company(), c.User(), qu.ID, tasks, "Queue "+qu.ID+" was deleted"); err != nil {
				return err
			}
		}
		_, err = s.d.DB.Queues().Delete(ctx, q, qu.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &deleteResponse{Deleted: 1}, nil
}
