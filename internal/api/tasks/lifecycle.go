package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/taskops"
)

// eventsResult is the events.delete_for_task answer inside reset and delete.
type eventsResult struct {
	Deleted int64 `json:"deleted"`
}

type resetRequest struct {
	statusRequest
	ClearAll           bool  `json:"clear_all"`
	ReturnFileURLs     bool  `json:"return_file_urls"`
	DeleteOutputModels *bool `json:"delete_output_models"`
	// DeleteExternalArtifacts (default true) deletes the files this server
	// stores for the task's artifacts, models and debug images.
	DeleteExternalArtifacts *bool `json:"delete_external_artifacts"`
}

type resetResponse struct {
	api.UpdateResult
	Dequeued      map[string]int  `json:"dequeued,omitempty"`
	DeletedModels int             `json:"deleted_models"`
	Events        eventsResult    `json:"events"`
	URLs          *store.FileURLs `json:"urls,omitempty"`
}

func (s *service) doReset(ctx context.Context, r taskops.ResetRequest, urls, deleteFiles bool) (*resetResponse, error) {
	var res *taskops.ResetResult
	var eventURLs []string
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		if eventURLs, err = s.d.DB.EventFileURLs(ctx, q, []string{r.Task}); err != nil {
			return err
		}
		res, err = taskops.Reset(ctx, &s.d.Env, q, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	if deleteFiles {
		s.d.RemoveFiles(ctx, r.Company, res.Cleanup.URLs.ArtifactURLs, res.Cleanup.URLs.ModelURLs, eventURLs)
	}
	out := &resetResponse{UpdateResult: *api.Updated(res.Update), DeletedModels: res.Cleanup.DeletedModels, Events: eventsResult{res.Cleanup.Events}}
	if res.Dequeued != nil {
		out.Dequeued = map[string]int{"removed": *res.Dequeued}
	}
	if urls {
		out.URLs = res.Cleanup.URLs
	}
	return out, nil
}

func (s *service) reset(ctx context.Context, c *rpc.Call, req *resetRequest) (*resetResponse, error) {
	return s.doReset(ctx, taskops.ResetRequest{StatusRequest: req.op(c), ClearAll: req.ClearAll,
		DeleteOutputModels: req.DeleteOutputModels == nil || *req.DeleteOutputModels}, req.ReturnFileURLs, api.DeleteFiles(req.DeleteExternalArtifacts))
}

type resetManyRequest struct {
	batchRequest
	ClearAll                bool  `json:"clear_all"`
	ReturnFileURLs          bool  `json:"return_file_urls"`
	DeleteOutputModels      *bool `json:"delete_output_models"`
	DeleteExternalArtifacts *bool `json:"delete_external_artifacts"`
}

func (s *service) resetMany(ctx context.Context, c *rpc.Call, req *resetManyRequest) (*api.BatchResult, error) {
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		res, err := s.doReset(ctx, taskops.ResetRequest{StatusRequest: req.op(c, id), ClearAll: req.ClearAll,
			DeleteOutputModels: req.DeleteOutputModels == nil || *req.DeleteOutputModels}, req.ReturnFileURLs, api.DeleteFiles(req.DeleteExternalArtifacts))
		if err != nil {
			return nil, err
		}
		item := map[string]any{"updated": res.Updated, "fields": res.Fields, "dequeued": res.Dequeued != nil,
			"deleted_models": res.DeletedModels, "events": res.Events}
		if req.ReturnFileURLs {
			item["urls"] = res.URLs
		}
		return item, nil
	})
}

type deleteRequest struct {
	statusRequest
	MoveToTrash             bool  `json:"move_to_trash"`
	ReturnFileURLs          bool  `json:"return_file_urls"`
	DeleteOutputModels      *bool `json:"delete_output_models"`
	DeleteExternalArtifacts *bool `json:"delete_external_artifacts"`
}

type deleteResponse struct {
	Deleted         bool            `json:"deleted"`
	UpdatedChildren int             `json:"updated_children"`
	UpdatedModels   int             `json:"updated_models"`
	DeletedModels   int             `json:"deleted_models"`
	Events          eventsResult    `json:"events"`
	URLs            *store.FileURLs `json:"urls,omitempty"` // seeds: "when return_file_urls is true"
}

func (s *service) doDelete(ctx context.Context, r taskops.DeleteRequest, urls, deleteFiles bool) (*deleteResponse, error) {
	var res *taskops.CleanupResult
	var eventURLs []string
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		if eventURLs, err = s.d.DB.EventFileURLs(ctx, q, []string{r.Task}); err != nil {
			return err
		}
		res, err = taskops.Delete(ctx, &s.d.Env, q, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	if deleteFiles {
		s.d.RemoveFiles(ctx, r.Company, res.URLs.ArtifactURLs, res.URLs.ModelURLs, eventURLs)
	}
	out := &deleteResponse{Deleted: true, UpdatedChildren: res.UpdatedChildren, UpdatedModels: res.UpdatedModels,
		DeletedModels: res.DeletedModels, Events: eventsResult{res.Events}}
	if urls {
		out.URLs = res.URLs
	}
	return out, nil
}

func (s *service) delete(ctx context.Context, c *rpc.Call, req *deleteRequest) (*deleteResponse, error) {
	return s.doDelete(ctx, taskops.DeleteRequest{StatusRequest: req.op(c),
		DeleteOutputModels: req.DeleteOutputModels == nil || *req.DeleteOutputModels}, req.ReturnFileURLs, api.DeleteFiles(req.DeleteExternalArtifacts))
}

type deleteManyRequest struct {
	batchRequest
	MoveToTrash             bool  `json:"move_to_trash"`
	ReturnFileURLs          bool  `json:"return_file_urls"`
	DeleteOutputModels      *bool `json:"delete_output_models"`
	DeleteExternalArtifacts *bool `json:"delete_external_artifacts"`
}

func (s *service) deleteMany(ctx context.Context, c *rpc.Call, req *deleteManyRequest) (*api.BatchResult, error) {
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		res, err := s.doDelete(ctx, taskops.DeleteRequest{StatusRequest: req.op(c, id),
			DeleteOutputModels: req.DeleteOutputModels == nil || *req.DeleteOutputModels}, req.ReturnFileURLs, api.DeleteFiles(req.DeleteExternalArtifacts))
		if err != nil {
			return nil, err
		}
		return map[string]any{"deleted": res.Deleted, "updated_children": res.UpdatedChildren, "updated_models": res.UpdatedModels,
			"deleted_models": res.DeletedModels, "events": res.Events, "urls": res.URLs}, nil
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
	n := 0
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		var missing []string
		for _, id := range req.Tasks {
			if _, err := taskops.LoadWritable(ctx, &s.d.Env, q, c.Company(), id); err != nil {
				if !apierr.Is(err, 400, 101) {
					return err
				}
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			return apierr.InvalidTaskID(missing...)
		}
		for _, id := range req.Tasks {
			r := taskops.StatusRequest{Company: c.Company(), User: c.User(), Task: id, StatusReason: req.StatusReason, StatusMessage: req.StatusMessage}
			if err := taskops.Archive(ctx, &s.d.Env, q, r); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &archiveResponse{Archived: n}, nil
}

func (s *service) archiveMany(ctx context.Context, c *rpc.Call, req *batchRequest) (*api.BatchResult, error) {
	return s.visibility(ctx, c, req, taskops.Archive, "archived")
}

func (s *service) unarchiveMany(ctx context.Context, c *rpc.Call, req *batchRequest) (*api.BatchResult, error) {
	return s.visibility(ctx, c, req, taskops.Unarchive, "unarchived")
}

func (s *service) visibility(ctx context.Context, c *rpc.Call, req *batchRequest,
	op func(context.Context, *domain.Env, store.Querier, taskops.StatusRequest) error, key string) (*api.BatchResult, error) {
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		err := s.d.DB.Tx(ctx, func(q store.Querier) error { return op(ctx, &s.d.Env, q, req.op(c, id)) })
		if err != nil {
			return nil, err
		}
		return map[string]any{key: true}, nil
	})
}
