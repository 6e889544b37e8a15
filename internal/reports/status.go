package reports

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// StatusInput names a report and the caller's message for a status or
// visibility change.
type StatusInput struct {
	Company, User, Task string
	Message             string
}

// Publish publishes a report in any status (the answer lists the written
// fields, published among them).
func Publish(ctx context.Context, env *domain.Env, in StatusInput) (*domain.Update, error) {
	var res *domain.Update
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		t, err := load(ctx, env, q, in.Company, in.Task)
		if err != nil {
			return err
		}
		now := env.Time()
		res, err = tasks.SetStatus(ctx, env, q, in.User, t, tasks.Change{To: tasks.Published, Force: true, StatusMessage: in.Message,
			Apply: func(t *store.Task, fields map[string]any) {
				t.Published = &now
				fields["published"] = now
			}})
		return err
	})
	return res, err
}

// SetArchived archives (or restores) a report; it answers 1.
func SetArchived(ctx context.Context, env *domain.Env, in StatusInput, archived bool) (int, error) {
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := load(ctx, env, q, in.Company, in.Task); err != nil {
			return err
		}
		r := tasks.StatusRequest{Company: in.Company, User: in.User, Task: in.Task, StatusMessage: in.Message}
		if archived {
			return tasks.Archive(ctx, env, q, r)
		}
		return tasks.Unarchive(ctx, env, q, r)
	})
	if err != nil {
		return 0, err
	}
	return 1, nil
}

// DeleteInput is a report deletion; without Force only a draft or an
// archived report may go.
type DeleteInput struct {
	Company, User, Task string
	Force               bool
}

// Delete deletes a report with its events and drops its folder when it
// was the last one there; files of its events are removed after the
// commit.
func Delete(ctx context.Context, env *domain.Env, in DeleteInput) (int, error) {
	urls := domain.NewFileURLs()
	n := 0
	var eventFiles []string
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		t, err := load(ctx, env, q, in.Company, in.Task)
		if err != nil {
			return err
		}
		if t.Status != tasks.Created && !domain.HasTag(t.SystemTags, tasks.TagArchived) && !in.Force {
			return apierr.TaskCannotBeDeleted("due to status, use force=True").With("task", t.ID, "expected", tasks.Created, "current", t.Status)
		}
		if n, eventFiles, err = tasks.DeleteTasks(ctx, env, q, []string{t.ID}, urls); err != nil {
			return err
		}
		return projects.DropEmptyReportsFolder(ctx, env, q, t.Project)
	})
	if err != nil {
		return 0, err
	}
	env.RemoveFiles(ctx, in.Company, urls.ArtifactURLs, urls.EventURLs, eventFiles)
	return n, nil
}
