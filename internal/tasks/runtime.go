package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// EditRuntime sets the keys of set and removes the keys of remove in a
// task's runtime properties (tasks.edit_runtime, API 2.34). Without force
// only a created task is editable; with force also a queued or in_progress
// one (the agent and the SDK write runtime properties of running tasks).
// It reports whether the task was written: nothing to change writes nothing.
func EditRuntime(ctx context.Context, d *domain.Env, r TaskEdit, set map[string]string, remove []string) (int, error) {
	updated := 0
	err := EditLocked(ctx, d, EditRequest{Company: r.Company, User: r.User, Task: r.Task, AnyStatus: true, Touch: true},
		func(t *store.Task) error {
			if t.Status != Created && !(r.Force && (t.Status == Queued || t.Status == InProgress)) {
				return apierr.InvalidTaskStatus("").With("expected", Created, "status", t.Status)
			}
			if len(set) == 0 && len(remove) == 0 {
				return errNothingToEdit
			}
			if t.Runtime == nil {
				t.Runtime = map[string]any{}
			}
			for k, v := range set {
				t.Runtime[k] = v
			}
			for _, k := range remove {
				delete(t.Runtime, k)
			}
			updated = 1
			return nil
		})
	if err == errNothingToEdit {
		return 0, nil
	}
	return updated, err
}

// errNothingToEdit rolls back an edit that would change nothing.
var errNothingToEdit = &nothingToEdit{}

type nothingToEdit struct{}

func (*nothingToEdit) Error() string { return "nothing to edit" }
