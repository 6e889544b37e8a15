package models

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// PublishedTask is the creating task published along with a model.
type PublishedTask struct {
	ID     string
	Update *domain.Update
}

// Publish makes a company model ready, in its own transaction. Unless
// told not to (publishTask), its creating task is published first (force
// = forceTask); when the task refuses (e.g. in_progress without force,
// 400/110) the model stays a draft. A task already published, or no
// longer there, is left alone (nil result).
func Publish(ctx context.Context, env *domain.Env, a Actor, id string, publishTask, forceTask bool) (*PublishedTask, error) {
	var pt *PublishedTask
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		m, err := LoadWritable(ctx, env, q, a.Company, id)
		if err != nil {
			return err
		}
		if m.Ready {
			return apierr.ModelIsReady(id)
		}
		if publishTask && m.Task != "" {
			t, err := env.DB.Tasks().Get(ctx, q, m.Task, a.Company)
			switch {
			case errors.Is(err, store.ErrNotFound):
			case err != nil:
				return err
			case t.Status != taskdom.Published:
				res, err := taskdom.Publish(ctx, env, q, a.Company, a.User, m.Task, forceTask, false, "", "")
				if err != nil {
					return err
				}
				pt = &PublishedTask{ID: m.Task, Update: res}
			}
		}
		m.Ready = true
		touch(m, a.User, env.Time(), true)
		return env.DB.Models().Update(ctx, q, m)
	})
	if err != nil {
		return nil, err
	}
	return pt, nil
}
