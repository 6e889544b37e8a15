package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// MoveRequest puts tasks under a project: by id (ProjectID; "" with
// ByID is no project) or by name (created when missing).
type MoveRequest struct {
	Company, User string
	Tasks         []string
	ByID          bool
	ProjectID     string
	ProjectName   string
}

// Move moves tasks of the company in one transaction, bumping the old
// and new projects; any unknown task or project fails it. It returns the
// target project id ("" for none).
func Move(ctx context.Context, d *domain.Env, r MoveRequest, ensure EnsureProject) (string, error) {
	projectID := r.ProjectID
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		loaded, err := LoadAllWritable(ctx, d, q, r.Company, r.Tasks)
		if err != nil {
			return err
		}
		switch {
		case projectID != "":
			p, err := d.DB.Projects().Get(ctx, q, projectID, r.Company)
			if err != nil {
				return domain.NotFound(err, apierr.InvalidProjectID(projectID))
			}
			projectID = p.ID
		case !r.ByID:
			p, err := ensure(ctx, d, q, r.Company, r.User, r.ProjectName)
			if err != nil {
				return err
			}
			projectID = p.ID
		}
		now := d.Time()
		touched := []string{projectID}
		for _, id := range r.Tasks {
			t := loaded[id]
			touched = append(touched, t.Project)
			t.Project, t.LastChange, t.LastChangedBy = projectID, now, r.User
			if err := d.DB.Tasks().Update(ctx, q, t); err != nil {
				return err
			}
		}
		return TouchProjects(ctx, d, q, touched...)
	})
	if err != nil {
		return "", err
	}
	return projectID, nil
}

// SetPublic moves tasks to the public company ("") remembering their
// origin, or back; all ids must qualify, else nothing changes.
func SetPublic(ctx context.Context, d *domain.Env, company, user string, ids []string, public bool) (int, error) {
	return domain.SetPublic(ctx, d, d.DB.Tasks(), company, ids, public, domain.Publicity[*store.Task]{
		NotFound: func(ids ...string) error { return apierr.InvalidTaskID(ids...).With("ids", ids) },
		Touch:    func(t *store.Task, now jsonx.Time) { t.LastChange, t.LastChangedBy = now, user },
	})
}
