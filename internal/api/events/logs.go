package events

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/rpc"
)

type taskLogRequest struct {
	Task            string           `json:"task" required:"true"`
	BatchSize       int              `json:"batch_size"`
	NavigateEarlier *bool            `json:"navigate_earlier"`
	FromTimestamp   int64            `json:"from_timestamp"`
	Order           string           `json:"order"`
	Metrics         []metricVariants `json:"metrics"`
}

func (r *taskLogRequest) Validate() error {
	if r.BatchSize < 0 {
		return apierr.Validation("batch_size", "must not be negative")
	}
	if err := validOrder(r.Order); err != nil {
		return err
	}
	return validateMetrics("metrics", r.Metrics)
}

type taskLogResponse struct {
	Events   []json.RawMessage `json:"events"`
	Returned int               `json:"returned"`
	Total    int               `json:"total"`
}

// getTaskLog reads a page of a task's console log from from_timestamp
// (exclusive; absent: the newest or the oldest event).
func (s *service) getTaskLog(ctx context.Context, c *rpc.Call, req *taskLogRequest) (*taskLogResponse, error) {
	page, err := events.ReadLog(ctx, &s.d.Env, c.Company(), events.LogRequest{Task: req.Task, Metrics: filters(req.Metrics),
		Earlier: req.NavigateEarlier == nil || *req.NavigateEarlier, Order: req.Order, From: req.FromTimestamp,
		Limit: batchSize(req.BatchSize, 5000, maxTotal), MaxTotal: maxTotal})
	if err != nil {
		return nil, err
	}
	return &taskLogResponse{Events: page.Events, Returned: len(page.Events), Total: page.Total}, nil
}

type downloadLogRequest struct {
	Task       string  `json:"task" required:"true"`
	LineType   string  `json:"line_type"`
	LineFormat *string `json:"line_format"`
}

// downloadTaskLog streams a task's whole log, oldest first, as JSON lines
// or as text lines of line_format.
func (s *service) downloadTaskLog(ctx context.Context, c *rpc.Call, req *downloadLogRequest) (*struct{}, error) {
	t, err := events.Readable(ctx, &s.d.Env, c.Company(), req.Task, false)
	if err != nil {
		return nil, err
	}
	var format *events.LineFormat
	if !strings.EqualFold(req.LineType, "json") && req.LineType != "" {
		lf := events.DefaultLineFormat
		if req.LineFormat != nil {
			lf = *req.LineFormat
		}
		if lf == "" {
			return nil, apierr.MissingField("line_format")
		}
		var undefined events.UndefinedPlaceholders
		format, err = events.ParseLineFormat(lf)
		switch {
		case errors.As(err, &undefined):
			return nil, apierr.FieldsValue("undefined placeholders in line format").With("placeholders", []string(undefined))
		case err != nil:
			return nil, apierr.FieldsValue("invalid line format")
		}
	}
	c.SetRaw(&rpc.RawResponse{ContentType: "text/plain", Filename: "task_" + t.ID + ".log", Stream: func(w io.Writer) error {
		return events.WriteLog(ctx, &s.d.Env, t.ID, format, w)
	}})
	return nil, nil
}

type clearLogRequest struct {
	Task         string `json:"task" required:"true"`
	AllowLocked  bool   `json:"allow_locked"`
	ThresholdSec int64  `json:"threshold_sec"`
	// IncludeMetrics and ExcludeMetrics narrow the deletion by metric (the
	// reference's fields; the seeds do not list them).
	IncludeMetrics []string `json:"include_metrics"`
	ExcludeMetrics []string `json:"exclude_metrics"`
}

func (r *clearLogRequest) Validate() error {
	if r.ThresholdSec < 0 {
		return apierr.Validation("threshold_sec", "must not be negative")
	}
	return nil
}

type deletedResponse struct {
	Deleted int64 `json:"deleted"`
}

// clearTaskLog deletes a task's log events, or those older than
// threshold_sec seconds, narrowed by metric when asked.
func (s *service) clearTaskLog(ctx context.Context, c *rpc.Call, req *clearLogRequest) (*deletedResponse, error) {
	n, err := events.ClearLog(ctx, &s.d.Env, c.Company(), req.Task, req.AllowLocked,
		events.LogClearing{OlderThanSec: req.ThresholdSec, Include: req.IncludeMetrics, Exclude: req.ExcludeMetrics})
	if err != nil {
		return nil, err
	}
	return &deletedResponse{Deleted: n}, nil
}

type deleteForTaskRequest struct {
	Task        string `json:"task" required:"true"`
	AllowLocked bool   `json:"allow_locked"`
}

// deleteForTask deletes every event of a task.
func (s *service) deleteForTask(ctx context.Context, c *rpc.Call, req *deleteForTaskRequest) (*deletedResponse, error) {
	return s.deleteFor(ctx, c, req.Task, false, req.AllowLocked)
}

type deleteForModelRequest struct {
	Model       string `json:"model" required:"true"`
	AllowLocked bool   `json:"allow_locked"`
}

// deleteForModel deletes every event of a model.
func (s *service) deleteForModel(ctx context.Context, c *rpc.Call, req *deleteForModelRequest) (*deletedResponse, error) {
	return s.deleteFor(ctx, c, req.Model, true, req.AllowLocked)
}

func (s *service) deleteFor(ctx context.Context, c *rpc.Call, id string, model, allowLocked bool) (*deletedResponse, error) {
	n, err := events.DeleteFor(ctx, &s.d.Env, c.Company(), id, model, allowLocked)
	if err != nil {
		return nil, err
	}
	return &deletedResponse{Deleted: n}, nil
}

type clearScrollRequest struct {
	ScrollID string `json:"scroll_id" required:"true"`
}

// clearScroll forgets a browsing state; cursor scroll ids hold nothing on
// the server.
func (s *service) clearScroll(ctx context.Context, c *rpc.Call, req *clearScrollRequest) (*struct{}, error) {
	return nil, s.scrolls.Clear(ctx, req.ScrollID, c.Company())
}
