package reports

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// MoveInput moves a report to the reports folder of another project:
// ProjectName (created when missing) or, when that is empty, Project by
// id ("" with ProjectGiven = the root).
type MoveInput struct {
	Company, User, Task string
	ProjectGiven        bool
	Project             string
	ProjectName         string
}

// Move moves a report and returns its new folder; the folder it leaves is
// dropped when no report is left in it.
func Move(ctx context.Context, env *domain.Env, in MoveInput) (string, error) {
	if !in.ProjectGiven && in.ProjectName == "" {
		return "", apierr.MissingField("project", "project_name")
	}
	var folderID string
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		t, err := load(ctx, env, q, in.Company, in.Task)
		if err != nil {
			return err
		}
		var folder *store.Project
		if in.ProjectName != "" {
			folder, err = projects.EnsureReportsFolder(ctx, env, q, in.Company, in.User, in.ProjectName)
		} else {
			folder, err = folderFor(ctx, env, q, in.Company, in.User, in.Project)
		}
		if err != nil {
			return err
		}
		folderID = folder.ID
		old := t.Project
		if old == folder.ID {
			return nil
		}
		now := env.Time()
		t.Project, t.LastChange, t.LastChangedBy = folder.ID, now, in.User
		if err := env.DB.Tasks().Update(ctx, q, t); err != nil {
			return err
		}
		if err := tasks.TouchProjects(ctx, env, q, folder.ID); err != nil {
			return err
		}
		return projects.DropEmptyReportsFolder(ctx, env, q, old)
	})
	return folderID, err
}
