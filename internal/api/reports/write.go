package reports

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/reports"
	"github.com/trove-ml/trove/internal/rpc"
)

type createRequest struct {
	Name         string   `json:"name" required:"true"`
	Tags         []string `json:"tags"`
	Comment      *string  `json:"comment"`
	Report       *string  `json:"report"`
	ReportAssets []string `json:"report_assets"`
	Project      string   `json:"project"`
}

func (r *createRequest) Validate() error { return api.ValidateTags("tags", r.Tags) }

type createResponse struct {
	ID        string `json:"id"`
	ProjectID string `json:"project_id"`
}

func (s *service) create(ctx context.Context, c *rpc.Call, req *createRequest) (*createResponse, error) {
	res, err := reports.Create(ctx, &s.d.Env, reports.CreateInput{Company: c.Company(), User: c.User(), Name: req.Name,
		Tags: req.Tags, Comment: req.Comment, Report: req.Report, ReportAssets: req.ReportAssets, Project: req.Project})
	if err != nil {
		return nil, err
	}
	return &createResponse{ID: res.ID, ProjectID: res.Project}, nil
}

type taskRequest struct {
	Task string `json:"task" required:"true"`
}

type updateRequest struct {
	taskRequest
	Name         *string   `json:"name"`
	Tags         *[]string `json:"tags"`
	Comment      *string   `json:"comment"`
	Report       *string   `json:"report"`
	ReportAssets *[]string `json:"report_assets"`
}

func (r *updateRequest) Validate() error { return api.ValidateTagPatch(r.Tags, nil) }

func (s *service) update(ctx context.Context, c *rpc.Call, req *updateRequest) (*api.UpdateResult, error) {
	res, err := reports.Update(ctx, &s.d.Env, reports.UpdateInput{Company: c.Company(), User: c.User(), Task: req.Task,
		Name: req.Name, Tags: req.Tags, Comment: req.Comment, Report: req.Report, ReportAssets: req.ReportAssets})
	if err != nil {
		return nil, err
	}
	return api.Updated(res), nil
}

type moveRequest struct {
	taskRequest
	// Project is absent, a project id, or null (the root).
	Project     json.RawMessage `json:"project"`
	ProjectName string          `json:"project_name"`
}

// project reads the target project id; given is false when absent.
func (r *moveRequest) project() (id string, given bool, err error) {
	raw := bytes.TrimSpace(r.Project)
	if len(raw) == 0 {
		return "", false, nil
	}
	if bytes.Equal(raw, []byte("null")) {
		return "", true, nil
	}
	if err := json.Unmarshal(raw, &id); err != nil {
		return "", false, apierr.Validation("project", "expected a project id or null")
	}
	return id, true, nil
}

func (r *moveRequest) Validate() error {
	_, _, err := r.project()
	return err
}

type moveResponse struct {
	ProjectID string `json:"project_id"`
}

func (s *service) move(ctx context.Context, c *rpc.Call, req *moveRequest) (*moveResponse, error) {
	id, given, _ := req.project()
	folder, err := reports.Move(ctx, &s.d.Env, reports.MoveInput{Company: c.Company(), User: c.User(), Task: req.Task,
		ProjectGiven: given, Project: id, ProjectName: req.ProjectName})
	if err != nil {
		return nil, err
	}
	return &moveResponse{ProjectID: folder}, nil
}

// statusRequest is publish, archive and unarchive: the schema names the
// client's message comment, the reference's code message; both are read.
type statusRequest struct {
	taskRequest
	Comment string `json:"comment"`
	Message string `json:"message"`
}

func (r *statusRequest) input(c *rpc.Call) reports.StatusInput {
	msg := r.Message
	if msg == "" {
		msg = r.Comment
	}
	return reports.StatusInput{Company: c.Company(), User: c.User(), Task: r.Task, Message: msg}
}

func (s *service) publish(ctx context.Context, c *rpc.Call, req *statusRequest) (*api.UpdateResult, error) {
	res, err := reports.Publish(ctx, &s.d.Env, req.input(c))
	if err != nil {
		return nil, err
	}
	return api.Updated(res), nil
}

type archiveResponse struct {
	Archived int `json:"archived"`
}

func (s *service) archive(ctx context.Context, c *rpc.Call, req *statusRequest) (*archiveResponse, error) {
	n, err := reports.SetArchived(ctx, &s.d.Env, req.input(c), true)
	if err != nil {
		return nil, err
	}
	return &archiveResponse{Archived: n}, nil
}

type unarchiveResponse struct {
	Unarchived int `json:"unarchived"`
}

func (s *service) unarchive(ctx context.Context, c *rpc.Call, req *statusRequest) (*unarchiveResponse, error) {
	n, err := reports.SetArchived(ctx, &s.d.Env, req.input(c), false)
	if err != nil {
		return nil, err
	}
	return &unarchiveResponse{Unarchived: n}, nil
}

type deleteRequest struct {
	taskRequest
	Force bool `json:"force"`
}

type deleteResponse struct {
	Deleted int `json:"deleted"`
}

func (s *service) delete(ctx context.Context, c *rpc.Call, req *deleteRequest) (*deleteResponse, error) {
	n, err := reports.Delete(ctx, &s.d.Env, reports.DeleteInput{Company: c.Company(), User: c.User(), Task: req.Task, Force: req.Force})
	if err != nil {
		return nil, err
	}
	return &deleteResponse{Deleted: n}, nil
}
