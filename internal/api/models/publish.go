package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
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

// publishedTaskOf maps the domain result (nil: no task published).
func publishedTaskOf(pt *modeldom.PublishedTask) *publishedTask {
	if pt == nil {
		return nil
	}
	return &publishedTask{ID: pt.ID, Data: api.Updated(pt.Update)}
}

type setReadyResponse struct {
	Updated       int            `json:"updated"`
	PublishedTask *publishedTask `json:"published_task,omitempty"`
}

func (s *service) setReady(ctx context.Context, c *rpc.Call, req *setReadyRequest) (*setReadyResponse, error) {
	publishTask := req.PublishTask == nil || *req.PublishTask
	pt, err := modeldom.Publish(ctx, &s.d.Env, actor(c), req.Model, publishTask, req.ForcePublishTask)
	if err != nil {
		return nil, err
	}
	return &setReadyResponse{Updated: 1, PublishedTask: publishedTaskOf(pt)}, nil
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
		pt, err := modeldom.Publish(ctx, &s.d.Env, actor(c), id, publishTasks, req.ForcePublishTask)
		if err != nil {
			return nil, err
		}
		item := map[string]any{"updated": true}
		if pt != nil {
			item["published_task"] = publishedTaskOf(pt)
		}
		return item, nil
	})
}
