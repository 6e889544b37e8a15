package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type deleteRequest struct {
	Project        string `json:"project" required:"true"`
	Force          bool   `json:"force"`
	DeleteContents bool   `json:"delete_contents"`
	// DeleteExternalArtifacts (default true) deletes the files this server
	// stores for deleted contents.
	DeleteExternalArtifacts *bool `json:"delete_external_artifacts"`
}

type deleteResponse struct {
	Deleted            int             `json:"deleted"`
	DisassociatedTasks int             `json:"disassociated_tasks"`
	DeletedModels      int             `json:"deleted_models"`
	DeletedTasks       int             `json:"deleted_tasks"`
	Urls               *store.FileURLs `json:"urls,omitempty"` // seeds: "returned when delete_contents is true"
}

// contentCounts counts tasks and models in a set of projects.
type contentCounts struct {
	Tasks, NonArchivedTasks, Models, NonArchivedModels int
}

func (s *service) countContents(ctx context.Context, q store.Querier, ids []string) (contentCounts, error) {
	var cc contentCounts
	in := store.Placeholders(len(ids))
	for _, t := range []struct {
		table      string
		all, alive *int
	}{{"tasks", &cc.Tasks, &cc.NonArchivedTasks}, {"models", &cc.Models, &cc.NonArchivedModels}} {
		err := q.QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(SUM(CASE WHEN "+s.d.DB.D.ArrayHas("system_tags")+" THEN 0 ELSE 1 END), 0) FROM "+
			t.table+" WHERE project IN ("+in+")", append([]any{"archived"}, store.Args(ids)...)...).Scan(t.all, t.alive)
		if err != nil {
			return cc, err
		}
	}
	return cc, nil
}

func (s *service) delete(ctx context.Context, c *rpc.Call, req *deleteRequest) (*deleteResponse, error) {
	resp := &deleteResponse{}
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		p, err := s.loadWritable(ctx, q, c, req.Project)
		if err != nil {
			return err
		}
		tree, err := s.d.DB.LoadProjectTree(ctx, q, c.Company())
		if err != nil {
			return err
		}
		ids := tree.WithDescendants([]string{p.ID})
		cc, err := s.countContents(ctx, q, ids)
		if err != nil {
			return err
		}
		if !req.Force {
			// The seeds refuse any task; the reference only non-archived ones.
			if cc.Tasks > 0 {
				return apierr.ProjectHasTasks(cc.Tasks)
			}
			if cc.NonArchivedModels > 0 {
				return apierr.ProjectHasModels(cc.NonArchivedModels)
			}
		}
		in := store.Placeholders(len(ids))
		if req.DeleteContents {
			resp.Urls = store.NewFileURLs()
			taskIDs, err := store.IDs(ctx, q, "SELECT id FROM tasks WHERE project IN ("+in+")", store.Args(ids)...)
			if err != nil {
				return err
			}
			modelIDs, err := store.IDs(ctx, q, "SELECT id FROM models WHERE project IN ("+in+")", store.Args(ids)...)
			if err != nil {
				return err
			}
			if resp.DeletedTasks, err = s.d.DB.DeleteTasksCascade(ctx, q, taskIDs, resp.Urls); err != nil {
				return err
			}
			if resp.DeletedModels, err = s.d.DB.DeleteModelsCascade(ctx, q, modelIDs, resp.Urls); err != nil {
				return err
			}
		} else {
			if resp.DisassociatedTasks, err = s.d.DB.DisassociateProject(ctx, q, "tasks", ids); err != nil {
				return err
			}
			if _, err = s.d.DB.DisassociateProject(ctx, q, "models", ids); err != nil {
				return err
			}
		}
		res, err := q.ExecContext(ctx, "DELETE FROM projects WHERE id IN ("+in+")", store.Args(ids)...)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		resp.Deleted = int(n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if resp.Urls != nil && api.DeleteFiles(req.DeleteExternalArtifacts) {
		s.d.RemoveFiles(ctx, c.Company(), resp.Urls.ArtifactURLs, resp.Urls.ModelURLs, resp.Urls.EventURLs)
	}
	return resp, nil
}

type validateDeleteRequest struct {
	Project string `json:"project" required:"true"`
}

type validateDeleteResponse struct {
	Tasks              int `json:"tasks"`
	NonArchivedTasks   int `json:"non_archived_tasks"`
	Models             int `json:"models"`
	NonArchivedModels  int `json:"non_archived_models"`
	Reports            int `json:"reports"`
	NonArchivedReports int `json:"non_archived_reports"`
	Pipelines          int `json:"pipelines"`
	Datasets           int `json:"datasets"`
}

func (s *service) validateDelete(ctx context.Context, c *rpc.Call, req *validateDeleteRequest) (*validateDeleteResponse, error) {
	q := s.d.DB.Read()
	p, err := s.d.DB.Projects().Get(ctx, q, req.Project, c.Company())
	if err != nil {
		return nil, apiNotFound(err, req.Project)
	}
	tree, err := s.d.DB.LoadProjectTree(ctx, q, c.Company())
	if err != nil {
		return nil, err
	}
	cc, err := s.countContents(ctx, q, tree.WithDescendants([]string{p.ID}))
	if err != nil {
		return nil, err
	}
	return &validateDeleteResponse{Tasks: cc.Tasks, NonArchivedTasks: cc.NonArchivedTasks, Models: cc.Models, NonArchivedModels: cc.NonArchivedModels}, nil
}
