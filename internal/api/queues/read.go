package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
)

type getByIDRequest struct {
	Queue          string `json:"queue" required:"true"`
	MaxTaskEntries *int   `json:"max_task_entries"`
}

func (r *getByIDRequest) Validate() error { return checkMaxEntries(r.MaxTaskEntries) }

func checkMaxEntries(n *int) error {
	if n != nil && *n < 0 {
		return apierr.Validation("max_task_entries", "must be at least 0, got %d", *n)
	}
	return nil
}

func maxEntries(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

type getByIDResponse struct {
	Queue *queueOut `json:"queue"`
}

func (s *service) getByID(ctx context.Context, c *rpc.Call, req *getByIDRequest) (*getByIDResponse, error) {
	qu, entries, err := queues.WithEntries(ctx, &s.d.Env, c.Company(), req.Queue, maxEntries(req.MaxTaskEntries))
	if err != nil {
		return nil, err
	}
	return &getByIDResponse{Queue: toWire(qu, entries)}, nil
}

type getDefaultResponse struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (s *service) getDefault(ctx context.Context, c *rpc.Call, _ *struct{}) (*getDefaultResponse, error) {
	qu, err := queues.GetDefault(ctx, &s.d.Env, c.Company())
	if err != nil {
		return nil, err
	}
	return &getDefaultResponse{ID: qu.ID, Name: qu.Name}, nil
}

type getAllRequest struct {
	query.Request
	MaxTaskEntries *int `json:"max_task_entries"`
	// CountTaskEntries adds entries_count to each queue (the queues page
	// of clearml-web 2.4 and later shows it; not in the reference 2.3).
	CountTaskEntries bool `json:"count_task_entries"`
}

func (r *getAllRequest) Validate() error { return checkMaxEntries(r.MaxTaskEntries) }

type getAllResponse struct {
	Queues   []map[string]any `json:"queues"`
	ScrollID *string          `json:"scroll_id,omitempty"`
}

func (s *service) getAll(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	return s.list(ctx, c, req, false)
}

func (s *service) getAllEx(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	return s.list(ctx, c, req, true)
}

// list runs get_all (ex=false) or get_all_ex.
func (s *service) list(ctx context.Context, c *rpc.Call, req *getAllRequest, ex bool) (*getAllResponse, error) {
	if err := api.ScrollAlways(&req.Request); err != nil {
		return nil, err
	}
	l, err := queues.List(ctx, &s.d.Env, c.Company(), &req.Request, c.Body, queues.ListOptions{Ex: ex, MaxEntries: maxEntries(req.MaxTaskEntries), CountEntries: req.CountTaskEntries,
		ShowHidden: req.SearchHidden || len(req.ID) > 0 || (req.Name != nil && *req.Name != "")})
	if err != nil {
		return nil, err
	}
	return &getAllResponse{Queues: listToWire(l), ScrollID: l.ScrollID}, nil
}
