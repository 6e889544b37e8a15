package tasks

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// PublishFrom are the statuses tasks.publish accepts without force.
var PublishFrom = []string{Stopped, Completed}

// Publish publishes a task inside the caller's transaction: status
// published and published = now. Unless publishModel is false, the last
// output model of the task is made ready first (models.set_ready calls
// this with publishModel=false, having readied its own model).
func Publish(ctx context.Context, d *domain.Env, q store.Querier, company, user, taskID string, force, publishModel bool, statusReason, statusMessage string) (*domain.Update, error) {
	t, err := LoadWritable(ctx, d, q, company, taskID)
	if err != nil {
		return nil, err
	}
	if err := CheckFrom(t, Published, PublishFrom, force); err != nil {
		return nil, err
	}
	now := d.Time()
	if publishModel && len(t.Models.Output) > 0 {
		if err := readyModel(ctx, d, q, company, user, t.Models.Output[len(t.Models.Output)-1].Model); err != nil {
			return nil, err
		}
	}
	return SetStatus(ctx, d, q, user, t, Change{To: Published, Force: true, StatusReason: statusReason, StatusMessage: statusMessage,
		Apply: func(t *store.Task, fields map[string]any) {
			t.Published = &now
			fields["published"] = now
		}})
}

// readyModel sets a company model ready; a model that no longer exists
// is skipped, as the reference does.
func readyModel(ctx context.Context, d *domain.Env, q store.Querier, company, user, id string) error {
	m, err := d.DB.Models().GetForUpdate(ctx, q, id, company)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil || m.Ready {
		return err
	}
	now := d.Time()
	m.Ready = true
	m.LastUpdate, m.LastChange, m.LastChangedBy = now, now, user
	return d.DB.Models().Update(ctx, q, m)
}
