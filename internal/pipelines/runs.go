package pipelines

import (
	"context"
	"slices"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// RunsToDelete checks a pipelines.delete_runs request: the runs of the
// project (its controller tasks) that ids names, refusing a request that
// would leave none.
func RunsToDelete(ctx context.Context, env *domain.Env, company, project string, ids []string) ([]string, error) {
	runs, err := env.DB.ScopedTaskIDs(ctx, env.DB.Read(), store.ContentScope{Companies: domain.Visible(company),
		Projects: []string{project}, Types: []string{controllerType}})
	if err != nil {
		return nil, err
	}
	var kept, gone []string
	for _, id := range runs {
		if slices.Contains(ids, id) {
			gone = append(gone, id)
		} else {
			kept = append(kept, id)
		}
	}
	if len(kept) == 0 {
		return nil, apierr.CannotRemoveAllRuns(project)
	}
	return gone, nil
}

// DeleteRun deletes a run (forced, with its output models) and the steps
// it launched (its child tasks).
func DeleteRun(ctx context.Context, env *domain.Env, company, user, id string) (*tasks.CleanupResult, error) {
	steps, err := env.DB.TaskChildren(ctx, env.DB.Read(), id)
	if err != nil {
		return nil, err
	}
	req := func(task string) tasks.DeleteRequest {
		return tasks.DeleteRequest{DeleteOutputModels: true, DeleteFiles: true, StatusRequest: tasks.StatusRequest{
			Company: company, User: user, Task: task, Force: true, StatusReason: "Pipeline run deleted"}}
	}
	for _, s := range steps {
		if s.Company != company {
			continue
		}
		if _, err := tasks.Delete(ctx, env, req(s.ID)); err != nil {
			return nil, err
		}
	}
	return tasks.Delete(ctx, env, req(id))
}
