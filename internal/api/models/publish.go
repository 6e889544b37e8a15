package models

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type setReadyRequest struct {
	Model            string `json:"model" required:"true"`
	ForcePublishTask bool   `json:"force_publish_task"`
	PublishTask      *bool  `json:"publish_task"`
}

// publishedTask reports the creating task published along with a model.
type publishedTask struct {
	ID   string            `json:"id"`
	Data *api.UpdateResult `json:"data"`
}

type setReadyResponse struct {
	Updated       int            `json:"updated"`
	PublishedTask *publishedTask `json:"published_task,omitempty"`
}

func (s *service) setReady(ctx context.Context, c *rpc.Call, req *setReadyRequest) (*setReadyResponse, error) {
	publishTask := req.PublishTask == nil || *req.PublishTask
	var pt *publishedTask
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		pt, err = s.publish(ctx, q, c, req.Model, publishTask, req.ForcePublishTask)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &setReadyResponse{Updated: 1, PublishedTask: pt}, nil
}

type publishManyRequest struct {
	IDs              []string `json:"ids" required:"true"`
	ForcePublishTask bool     `json:"force_publish_task"`
	PublishTasks     *bool    `json:"publish_tasks"`
	// PublishTask is the reference's spelling of publish_tasks.
	PublishTask *bool `json:"publish_task"`
}

func (s *service) publishMany(ctx context.Context, c *rpc.Call, req *publishManyRequest) (*api.BatchResult, error) {
	publishTasks := true
	for _, v := range []*bool{req.PublishTasks, req.PublishTask} {
		if v != nil {
			publishTasks = *v
		}
	}
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		var pt *publishedTask
		err := s.d.DB.Tx(ctx, func(q store.Querier) error {
			var err error
			pt, err = s.publish(ctx, q, c, id, publishTasks, req.ForcePublishTask)
			return err
		})
		if err != nil {
			return nil, err
		}
		item := map[string]any{"updated": true}
		if pt != nil {
			item["published_task"] = pt
		}
		return item, nil
	})
}

// publish makes a company model ready. Unless told not to, its creating
// task is published first (force = forceTask); when the task refuses
// (e.g. in_progress without force, 400/110) the error fails the
// transaction and the model stays a draft. A task already published, or
// no longer there, is left alone.
func (s *service) publish(ctx context.Context, q store.Querier, c *rpc.Call, id string, publishTask, forceTask bool) (*publishedTask, error) {
	m, err := s.loadWritable(ctx, q, c.Company(), id)
	if err != nil {
		return nil, err
	}
	if m.Ready {
		return nil, apierr.ModelIsReady(id)
	}
	var pt *publishedTask
	if publishTask && m.Task != "" {
		t, err := s.d.DB.Tasks().Get(ctx, q, m.Task, c.Company())
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return nil, err
		case t.Status != taskdom.Published:
			res, err := taskdom.Publish(ctx, &s.d.Env, q, c.Company(), c.User(), m.Task, forceTask, false, "", "")
			if err != nil {
				return nil, err
			}
			pt = &publishedTask{ID: m.Task, Data: api.Updated(res)}
		}
	}
	m.Ready = true
	s.touch(m, c.User(), true)
	if err := s.d.DB.Models().Update(ctx, q, m); err != nil {
		return nil, err
	}
	return pt, nil
}
