package tasks

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	projectdom "github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type editRequest struct {
	taskdom.Fields
	Task   string  `json:"task" required:"true"`
	Force  bool    `json:"force"`
	Status *string `json:"status"`
}

func (r *editRequest) Validate() error {
	if r.Status != nil && !taskdom.ValidStatus(*r.Status) {
		return apierr.Validation("status", "invalid task status %q", *r.Status)
	}
	return validateFields(&r.Fields, false)
}

func (s *service) edit(ctx context.Context, c *rpc.Call, req *editRequest) (*api.UpdateResult, error) {
	res, err := taskdom.Edit(ctx, &s.d.Env, taskdom.EditInput{Company: c.Company(), User: c.User(), Task: req.Task,
		Force: req.Force, Fields: &req.Fields, Status: req.Status})
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
	return validateFields(&taskdom.Fields{Name: r.Name, Tags: r.Tags, SystemTags: r.SystemTags}, false)
}

// input is the one conversion of the request to the domain's update.
func (r *updateRequest) input() *taskdom.UpdateInput {
	return &taskdom.UpdateInput{Task: r.Task, Name: r.Name, Comment: r.Comment, Project: r.Project, Tags: r.Tags,
		SystemTags: r.SystemTags, StatusMessage: r.StatusMessage, OutputError: r.OutputError, Created: r.Created}
}

func (s *service) update(ctx context.Context, c *rpc.Call, req *updateRequest) (*api.UpdateResult, error) {
	res, err := taskdom.Update(ctx, &s.d.Env, c.Company(), c.User(), []*taskdom.UpdateInput{req.input()}, true)
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
	updates := make([]*taskdom.UpdateInput, 0, len(c.Lines))
	for i, ln := range c.Lines {
		r := &updateRequest{}
		if err := rpc.Decode(ln, r); err != nil {
			if ae := apierr.As(err); ae != nil {
				return nil, ae.With("line", i+1)
			}
			return nil, err
		}
		updates = append(updates, r.input())
	}
	res, err := taskdom.Update(ctx, &s.d.Env, c.Company(), c.User(), updates, false)
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
	res, err := taskdom.SetRequirements(ctx, &s.d.Env, c.Company(), c.User(), req.Task, req.Requirements)
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
	id, err := taskdom.Move(ctx, &s.d.Env, taskdom.MoveRequest{Company: c.Company(), User: c.User(), Tasks: req.IDs,
		ByID: hasProject, ProjectID: projectID, ProjectName: req.ProjectName}, projectdom.EnsureByName)
	if err != nil {
		return nil, err
	}
	resp := &moveResponse{}
	if id != "" {
		resp.ProjectID = &id
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

// setPublic makes tasks public or private (taskdom.SetPublic).
func (s *service) setPublic(ctx context.Context, c *rpc.Call, ids []string, public bool) (*updatedResponse, error) {
	n, err := taskdom.SetPublic(ctx, &s.d.Env, c.Company(), c.User(), ids, public)
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}
