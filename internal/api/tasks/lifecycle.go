package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// eventsResult is the events.delete_for_task answer inside reset and delete.
type eventsResult struct {
	Deleted int64 `json:"deleted"`
}

// resetOptions are the options of tasks.reset and tasks.reset_many.
type resetOptions struct {
	ClearAll           bool  `json:"clear_all"`
	ReturnFileURLs     bool  `json:"return_file_urls"`
	DeleteOutputModels *bool `json:"delete_output_models"`
	// DeleteExternalArtifacts (default true) deletes the files this server
	// stores for the task's artifacts, models and debug images.
	DeleteExternalArtifacts *bool `json:"delete_external_artifacts"`
}

func (o *resetOptions) domain(op taskdom.StatusRequest) taskdom.ResetRequest {
	return taskdom.ResetRequest{StatusRequest: op, ClearAll: o.ClearAll,
		DeleteOutputModels: o.DeleteOutputModels == nil || *o.DeleteOutputModels, DeleteFiles: api.DeleteFiles(o.DeleteExternalArtifacts)}
}

type resetRequest struct {
	statusRequest
	resetOptions
}

type resetResponse struct {
	api.UpdateResult
	Dequeued      map[string]int `json:"dequeued,omitempty"`
	DeletedModels int            `json:"deleted_models"`
	Events        eventsResult   `json:"events"`
	URLs          *api.FileURLs  `json:"urls,omitempty"`
}

func (s *service) reset(ctx context.Context, c *rpc.Call, req *resetRequest) (*resetResponse, error) {
	res, err := taskdom.Reset(ctx, &s.d.Env, req.domain(req.op(c)))
	if err != nil {
		return nil, err
	}
	out := &resetResponse{UpdateResult: *api.Updated(res.Update), DeletedModels: res.Cleanup.DeletedModels, Events: eventsResult{res.Cleanup.Events}}
	if res.Dequeued != nil {
		out.Dequeued = map[string]int{"removed": *res.Dequeued}
	}
	if req.ReturnFileURLs {
		out.URLs = api.URLs(res.Cleanup.URLs)
	}
	return out, nil
}

type resetManyRequest struct {
	batchRequest
	resetOptions
}

func (s *service) resetMany(ctx context.Context, c *rpc.Call, req *resetManyRequest) (*api.BatchResult, error) {
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		res, err := taskdom.Reset(ctx, &s.d.Env, req.domain(req.op(c, id)))
		if err != nil {
			return nil, err
		}
		item := map[string]any{"updated": res.Updated, "fields": res.Fields, "dequeued": res.Dequeued != nil,
			"deleted_models": res.Cleanup.DeletedModels, "events": eventsResult{res.Cleanup.Events}}
		if req.ReturnFileURLs {
			item["urls"] = api.URLs(res.Cleanup.URLs)
		}
		return item, nil
	})
}

// deleteOptions are the options of tasks.delete and tasks.delete_many.
type deleteOptions struct {
	MoveToTrash             bool  `json:"move_to_trash"`
	ReturnFileURLs          bool  `json:"return_file_urls"`
	DeleteOutputModels      *bool `json:"delete_output_models"`
	DeleteExternalArtifacts *bool `json:"delete_external_artifacts"`
}

func (o *deleteOptions) domain(op taskdom.StatusRequest) taskdom.DeleteRequest {
	return taskdom.DeleteRequest{StatusRequest: op,
		DeleteOutputModels: o.DeleteOutputModels == nil || *o.DeleteOutputModels, DeleteFiles: api.DeleteFiles(o.DeleteExternalArtifacts)}
}

type deleteRequest struct {
	statusRequest
	deleteOptions
}

type deleteResponse struct {
	Deleted         bool          `json:"deleted"`
	UpdatedChildren int           `json:"updated_children"`
	UpdatedModels   int           `json:"updated_models"`
	DeletedModels   int           `json:"deleted_models"`
	Events          eventsResult  `json:"events"`
	URLs            *api.FileURLs `json:"urls,omitempty"` // seeds: "when return_file_urls is true"
}

// deleteAnswer maps a delete to the wire (urls: with the file URLs).
func deleteAnswer(res *taskdom.CleanupResult, urls bool) *deleteResponse {
	out := &deleteResponse{Deleted: true, UpdatedChildren: res.UpdatedChildren, UpdatedModels: res.UpdatedModels,
		DeletedModels: res.DeletedModels, Events: eventsResult{res.Events}}
	if urls {
		out.URLs = api.URLs(res.URLs)
	}
	return out
}

func (s *service) delete(ctx context.Context, c *rpc.Call, req *deleteRequest) (*deleteResponse, error) {
	res, err := taskdom.Delete(ctx, &s.d.Env, req.domain(req.op(c)))
	if err != nil {
		return nil, err
	}
	return deleteAnswer(res, req.ReturnFileURLs), nil
}

type deleteManyRequest struct {
	batchRequest
	deleteOptions
}

func (s *service) deleteMany(ctx context.Context, c *rpc.Call, req *deleteManyRequest) (*api.BatchResult, error) {
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		res, err := taskdom.Delete(ctx, &s.d.Env, req.domain(req.op(c, id)))
		if err != nil {
			return nil, err
		}
		out := deleteAnswer(res, req.ReturnFileURLs)
		return map[string]any{"deleted": out.Deleted, "updated_children": out.UpdatedChildren, "updated_models": out.UpdatedModels,
			"deleted_models": out.DeletedModels, "events": out.Events, "urls": out.URLs}, nil
	})
}

type archiveRequest struct {
	Tasks         []string `json:"tasks" required:"true"`
	StatusReason  string   `json:"status_reason"`
	StatusMessage string   `json:"status_message"`
}

type archiveResponse struct {
	Archived int `json:"archived"`
}

// archive archives every listed task in one transaction; any unknown id
// fails the whole call.
func (s *service) archive(ctx context.Context, c *rpc.Call, req *archiveRequest) (*archiveResponse, error) {
	n, err := taskdom.ArchiveAll(ctx, &s.d.Env, taskdom.StatusRequest{Company: c.Company(), User: c.User(),
		StatusReason: req.StatusReason, StatusMessage: req.StatusMessage}, req.Tasks)
	if err != nil {
		return nil, err
	}
	return &archiveResponse{Archived: n}, nil
}

func (s *service) archiveMany(ctx context.Context, c *rpc.Call, req *batchRequest) (*api.BatchResult, error) {
	return s.visibility(ctx, c, req, taskdom.Archive, "archived")
}

func (s *service) unarchiveMany(ctx context.Context, c *rpc.Call, req *batchRequest) (*api.BatchResult, error) {
	return s.visibility(ctx, c, req, taskdom.Unarchive, "unarchived")
}

func (s *service) visibility(ctx context.Context, c *rpc.Call, req *batchRequest,
	op taskdom.VisibilityOp, key string) (*api.BatchResult, error) {
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		if err := taskdom.RunVisibility(ctx, &s.d.Env, op, req.op(c, id)); err != nil {
			return nil, err
		}
		return map[string]any{key: true}, nil
	})
}
