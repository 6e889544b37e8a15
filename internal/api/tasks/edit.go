package tasks

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/api/projects"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type editRequest struct {
	taskFields
	Task   string  `json:"task" required:"true"`
	Force  bool    `json:"force"`
	Status *string `json:"status"`
}

func (r *editRequest) Validate() error {
	if r.Status != nil && !taskdom.ValidStatus(*r.Status) {
		return apierr.Validation("status", "invalid task status %q", *r.Status)
	}
	return r.validate(false)
}

func (s *service) edit(ctx context.Context, c *rpc.Call, req *editRequest) (*api.UpdateResult, error) {
	res, err := taskdom.EditFields(ctx, &s.d.Env, taskdom.EditFieldsRequest{Company: c.Company(), User: c.User(), Task: req.Task,
		Force: req.Force, Refs: taskdom.RefChecks{Parent: req.Parent != nil, Project: req.Project != nil, Models: req.Models != nil},
		Apply: func(t *store.Task, now jsonx.Time) map[string]any {
			fields := req.apply(t, now)
			if req.Status != nil {
				t.Status = *req.Status
				fields["status"] = t.Status
			}
			return fields
		}})
	if err != nil {
		return nil, err
	}
	return api.Updated(res), nil
}

// updateRequest is tasks.update and one line of tasks.update_batch.
type updateRequest struct {
	Task          string    `json:"task" required:"true"`
	Name          *string   `json:"name"`
	Tags          *[]string `json:"tags"`
	SystemTags    *[]string `json:"system_tags"`
	Comment       *string   `json:"comment"`
	Project       *string   `json:"project"`
	StatusMessage *string   `json:"status_message"`
	OutputError   *string   `json:"output__error"`
	// Created is settable as the seeds say (the reference ignores it).
	Created *jsonx.Time `json:"created"`
}

func (r *updateRequest) Validate() error {
	f := taskFields{Name: r.Name, Tags: r.Tags, SystemTags: r.SystemTags}
	return f.validate(false)
}

// domain maps the request to the tasks domain's update.
func (r *updateRequest) domain() taskdom.UpdateFieldsRequest {
	return taskdom.UpdateFieldsRequest{Task: r.Task, ProjectChanged: r.Project != nil, Apply: func(t *store.Task, now jsonx.Time) map[string]any {
		f := taskFields{Name: r.Name, Tags: r.Tags, SystemTags: r.SystemTags, Comment: r.Comment, Project: r.Project}
		fields := f.apply(t, now)
		if r.StatusMessage != nil {
			t.StatusMessage = r.StatusMessage
			fields["status_message"] = *r.StatusMessage
		}
		if r.OutputError != nil {
			t.Output.Error = r.OutputError
			fields["output.error"] = *r.OutputError
		}
		if r.Created != nil && !r.Created.IsZero() {
			t.Created = *r.Created
			fields["created"] = t.Created
		}
		return fields
	}}
}

func (s *service) update(ctx context.Context, c *rpc.Call, req *updateRequest) (*api.UpdateResult, error) {
	res, err := taskdom.UpdateFields(ctx, &s.d.Env, c.Company(), c.User(), []taskdom.UpdateFieldsRequest{req.domain()}, true)
	if err != nil {
		return nil, err
	}
	if res[0].Updated == 0 {
		return &api.UpdateResult{Fields: map[string]any{}}, nil
	}
	return api.Updated(res[0]), nil
}

type updateBatchResponse struct {
	Updated int `json:"updated"`
}

// updateBatch applies tasks.update lines in one transaction: an unknown
// task or a bad line fails the whole batch.
func (s *service) updateBatch(ctx context.Context, c *rpc.Call) (any, error) {
	if len(c.Lines) == 0 {
		return nil, apierr.BatchNoItems()
	}
	updates := make([]taskdom.UpdateFieldsRequest, 0, len(c.Lines))
	for i, ln := range c.Lines {
		r := &updateRequest{}
		if err := rpc.Decode(ln, r); err != nil {
			if ae := apierr.As(err); ae != nil {
				return nil, ae.With("line", i+1)
			}
			return nil, err
		}
		updates = append(updates, r.domain())
	}
	res, err := taskdom.UpdateFields(ctx, &s.d.Env, c.Company(), c.User(), updates, false)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, u := range res {
		n += u.Updated
	}
	return &updateBatchResponse{Updated: n}, nil
}

type setRequirementsRequest struct {
	Task         string         `json:"task" required:"true"`
	Requirements map[string]any `json:"requirements" required:"true"`
}

func (s *service) setRequirements(ctx context.Context, c *rpc.Call, req *setRequirementsRequest) (*api.UpdateResult, error) {
	return s.write(ctx, c, req.Task, func(t *store.Task) (map[string]any, error) {
		t.Script.Requirements = req.Requirements
		return map[string]any{"script.requirements": req.Requirements}, nil
	})
}

// write runs a small write on one task of the caller (taskdom.Write).
func (s *service) write(ctx context.Context, c *rpc.Call, id string, fn func(t *store.Task) (map[string]any, error)) (*api.UpdateResult, error) {
	res, err := taskdom.Write(ctx, &s.d.Env, c.Company(), c.User(), id, fn)
	if err != nil {
		return nil, err
	}
	return api.Updated(res), nil
}

func (s *service) ping(ctx context.Context, c *rpc.Call, req *taskRequest) (*empty, error) {
	if err := taskdom.Ping(ctx, &s.d.Env, c.Company(), c.User(), req.Task); err != nil {
		return nil, err
	}
	return &empty{}, nil
}

type moveRequest struct {
	IDs         []string        `json:"ids" required:"true"`
	Project     json.RawMessage `json:"project"`
	ProjectName string          `json:"project_name"`
}

type moveResponse struct {
	ProjectID *string `json:"project_id"`
}

// move puts tasks under a project given by id (null = no project) or by
// name (created when missing).
func (s *service) move(ctx context.Context, c *rpc.Call, req *moveRequest) (*moveResponse, error) {
	hasProject := len(req.Project) > 0
	if !hasProject && req.ProjectName == "" {
		return nil, apierr.MissingField("project or project_name")
	}
	var projectID string
	if hasProject && !bytes.Equal(bytes.TrimSpace(req.Project), []byte("null")) {
		if err := json.Unmarshal(req.Project, &projectID); err != nil {
			return nil, apierr.Validation("project", "expected a project id")
		}
	}
	resp := &moveResponse{}
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		loaded, err := taskdom.LoadAllWritable(ctx, &s.d.Env, q, c.Company(), req.IDs)
		if err != nil {
			return err
		}
		switch {
		case projectID != "":
			p, err := s.d.DB.Projects().Get(ctx, q, projectID, c.Company())
			if err != nil {
				return domain.NotFound(err, apierr.InvalidProjectID(projectID))
			}
			projectID = p.ID
		case !hasProject:
			p, err := projects.EnsureByName(ctx, s.d, q, c.Company(), c.User(), req.ProjectName)
			if err != nil {
				return err
			}
			projectID = p.ID
		}
		now := s.d.Time()
		touched := []string{projectID}
		for _, id := range req.IDs {
			t := loaded[id]
			touched = append(touched, t.Project)
			t.Project, t.LastChange, t.LastChangedBy = projectID, now, c.User()
			if err := s.d.DB.Tasks().Update(ctx, q, t); err != nil {
				return err
			}
		}
		if projectID != "" {
			resp.ProjectID = &projectID
		}
		return taskdom.TouchProjects(ctx, &s.d.Env, q, touched...)
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

type idsRequest struct {
	IDs []string `json:"ids"`
}

type updatedResponse struct {
	Updated int `json:"updated"`
}

func (s *service) makePublic(ctx context.Context, c *rpc.Call, req *idsRequest) (*updatedResponse, error) {
	return s.setPublic(ctx, c, req.IDs, true)
}

func (s *service) makePrivate(ctx context.Context, c *rpc.Call, req *idsRequest) (*updatedResponse, error) {
	return s.setPublic(ctx, c, req.IDs, false)
}

// setPublic moves tasks to the public company ("") remembering their
// origin, or back; all ids must qualify, else nothing changes.
func (s *service) setPublic(ctx context.Context, c *rpc.Call, ids []string, public bool) (*updatedResponse, error) {
	n, err := domain.SetPublic(ctx, &s.d.Env, s.d.DB.Tasks(), c.Company(), ids, public, domain.Publicity[*store.Task]{
		NotFound: func(ids ...string) error { return apierr.InvalidTaskID(ids...).With("ids", ids) },
		Touch:    func(t *store.Task, now jsonx.Time) { t.LastChange, t.LastChangedBy = now, c.User() },
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}
