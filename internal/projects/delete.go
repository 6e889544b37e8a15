package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// DeleteRequest is a project deletion.
type DeleteRequest struct {
	Company string
	Project string
	// Force deletes a project that still holds tasks or models.
	Force bool
	// DeleteContents deletes the tasks and models of the project and its
	// subprojects; otherwise they only leave the projects.
	DeleteContents bool
	// DeleteFiles removes the stored files of the deleted contents.
	DeleteFiles bool
}

// DeleteResult is what a project deletion did.
type DeleteResult struct {
	// Deleted counts the projects deleted (the project and its subprojects).
	Deleted            int
	DisassociatedTasks int
	DeletedModels      int
	DeletedTasks       int
	// URLs are the files of the deleted contents (nil without
	// DeleteContents).
	URLs *domain.FileURLs
	// EventFiles are the files of the deleted tasks' events: removed
	// after the commit too, but not answered (urls.event_urls stays
	// empty, as the reference answers).
	EventFiles []string
}

// DeleteProject deletes a project and its subprojects in one transaction,
// with their contents (tasks with their queue entries and events, models
// with their events) or leaving the contents without a project; the
// contents' stored files are removed after the commit.
func DeleteProject(ctx context.Context, d *domain.Env, r DeleteRequest) (*DeleteResult, error) {
	res := &DeleteResult{}
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		ids, tree, err := projectAndDescendants(ctx, d, q, r.Company, r.Project)
		if err != nil {
			return err
		}
		if !r.Force {
			cc, err := countContents(ctx, d, q, r.Company, ids)
			if err != nil {
				return err
			}
			if cc.Pipelines > 0 {
				return apierr.ProjectHasPipelines(r.Project)
			}
			if cc.Datasets > 0 {
				return apierr.ProjectHasDatasets(r.Project)
			}
			// The seeds refuse any task; the reference only non-archived ones.
			if cc.Tasks+cc.Reports > 0 {
				return apierr.ProjectHasTasks(cc.Tasks + cc.Reports)
			}
			if cc.NonArchivedModels > 0 {
				return apierr.ProjectHasModels(cc.NonArchivedModels)
			}
		}
		if r.DeleteContents {
			err = deleteContents(ctx, d, q, ids, res)
		} else {
			err = disassociateContents(ctx, d, q, ids, res)
		}
		if err != nil {
			return err
		}
		// MLflow's records of the projects as experiments go with them,
		// whatever becomes of their runs (MLflow deletes an experiment's
		// traces with it).
		exps := make([]string, len(ids))
		for i, id := range ids {
			exps[i] = domain.MLflowExperimentID(id, tree.Parent[id], tree.Name[id])
		}
		if err := d.DB.DeleteExperimentRecords(ctx, q, r.Company, exps); err != nil {
			return err
		}
		res.Deleted, err = d.DB.DeleteProjects(ctx, q, ids)
		return err
	})
	if err != nil {
		return nil, err
	}
	if res.URLs != nil && r.DeleteFiles {
		d.RemoveFiles(ctx, r.Company, res.URLs.ArtifactURLs, res.URLs.ModelURLs, res.URLs.EventURLs, res.EventFiles)
	}
	return res, nil
}

// projectAndDescendants loads a writable project of the company (for
// update) and returns its id with the ids of its subprojects, and the
// company's project tree.
func projectAndDescendants(ctx context.Context, d *domain.Env, q store.Querier, company, id string) ([]string, *store.ProjectTree, error) {
	p, err := d.DB.Projects().GetForUpdate(ctx, q, id, domain.Visible(company)...)
	if err != nil {
		return nil, nil, domain.NotFound(err, apierr.InvalidProjectID(id))
	}
	if p.Company == "" {
		return nil, nil, apierr.NoWritePermission("public project: id=%s", id)
	}
	tree, err := d.DB.LoadProjectTree(ctx, q, company)
	if err != nil {
		return nil, nil, err
	}
	return tree.WithDescendants([]string{p.ID}), tree, nil
}

// deleteContents deletes the tasks and models of the projects through the
// tasks and models cascades, gathering their files.
func deleteContents(ctx context.Context, d *domain.Env, q store.Querier, projects []string, res *DeleteResult) error {
	res.URLs = domain.NewFileURLs()
	taskIDs, err := d.DB.TaskIDsInProjects(ctx, q, projects)
	if err != nil {
		return err
	}
	modelIDs, err := d.DB.ModelIDsInProjects(ctx, q, projects)
	if err != nil {
		return err
	}
	if res.DeletedTasks, res.EventFiles, err = tasks.DeleteTasks(ctx, d, q, taskIDs, res.URLs); err != nil {
		return err
	}
	res.DeletedModels, err = domain.DeleteModels(ctx, d, q, modelIDs, res.URLs)
	return err
}

// disassociateContents leaves the tasks and models of the projects
// without a project.
func disassociateContents(ctx context.Context, d *domain.Env, q store.Querier, projects []string, res *DeleteResult) error {
	var err error
	if res.DisassociatedTasks, err = d.DB.DisassociateProject(ctx, q, "tasks", projects); err != nil {
		return err
	}
	_, err = d.DB.DisassociateProject(ctx, q, "models", projects)
	return err
}

// CountContents counts the contents of a project of the company and its
// subprojects (projects.validate_delete).
func CountContents(ctx context.Context, d *domain.Env, company, id string) (*Contents, error) {
	q := d.DB.Read()
	p, err := d.DB.Projects().Get(ctx, q, id, company)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidProjectID(id))
	}
	tree, err := d.DB.LoadProjectTree(ctx, q, company)
	if err != nil {
		return nil, err
	}
	return countContents(ctx, d, q, company, tree.WithDescendants([]string{p.ID}))
}
