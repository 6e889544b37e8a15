package events

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
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
// (exclusive; absent: the newest or the oldest event), completed with the
// events sharing the last event's time, so the next page can start after
// that time.
func (s *service) getTaskLog(ctx context.Context, c *rpc.Call, req *taskLogRequest) (*taskLogResponse, error) {
	t, err := events.Readable(ctx, &s.d.Env, c.Company(), req.Task, false)
	if err != nil {
		return nil, err
	}
	earlier := req.NavigateEarlier == nil || *req.NavigateEarlier
	lq := store.LogQuery{Task: t.ID, Metrics: filters(req.Metrics), Desc: earlier, Limit: batchSize(req.BatchSize, 5000, maxTotal)}
	if req.FromTimestamp != 0 {
		lq.From = &req.FromTimestamp
	}
	es, q := s.d.DB.Events(), s.d.DB.Read()
	rows, err := es.Logs(ctx, q, lq)
	if err != nil {
		return nil, err
	}
	if len(rows) == lq.Limit && len(rows) > 0 {
		last := rows[len(rows)-1]
		rest, err := es.Logs(ctx, q, store.LogQuery{Task: t.ID, Metrics: lq.Metrics, Desc: earlier, AtTS: &last.TS, AfterID: last.ID})
		if err != nil {
			return nil, err
		}
		rows = append(rows, rest...)
	}
	if (earlier && req.Order == "asc") || (!earlier && req.Order == "desc") {
		for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
			rows[i], rows[j] = rows[j], rows[i]
		}
	}
	total, err := es.CountLogs(ctx, q, t.ID, lq.Metrics, maxTotal)
	if err != nil {
		return nil, err
	}
	out := &taskLogResponse{Events: make([]json.RawMessage, len(rows)), Returned: len(rows), Total: total}
	for i := range rows {
		out.Events[i] = events.RenderLog(&rows[i])
	}
	return out, nil
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
	es, q := s.d.DB.Events(), s.d.DB.Read()
	c.SetRaw(&rpc.RawResponse{ContentType: "text/plain", Filename: "task_" + t.ID + ".log", Stream: func(w io.Writer) error {
		lq := store.LogQuery{Task: t.ID, Limit: 5000, After: true, AfterTS: math.MinInt64, AfterID: math.MinInt64}
		for {
			rows, err := es.Logs(ctx, q, lq)
			if err != nil {
				return err
			}
			var buf []byte
			for i := range rows {
				if format != nil {
					buf = append(buf, format.Line(&rows[i])...)
				} else {
					buf = append(buf, jsonx.Restore(events.RenderLogLine(&rows[i]))...)
				}
			}
			if _, err := w.Write(buf); err != nil {
				return err
			}
			if len(rows) < lq.Limit {
				return nil
			}
			last := rows[len(rows)-1]
			lq.AfterTS, lq.AfterID = last.TS, last.ID
		}
	}})
	return nil, nil
}

type clearLogRequest struct {
	Task         string `json:"task" required:"true"`
	AllowLocked  bool   `json:"allow_locked"`
	ThresholdSec int64  `json:"threshold_sec"`
}

type deletedResponse struct {
	Deleted int64 `json:"deleted"`
}

// clearTaskLog deletes a task's log events, or those older than
// threshold_sec seconds.
func (s *service) clearTaskLog(ctx context.Context, c *rpc.Call, req *clearLogRequest) (*deletedResponse, error) {
	if req.ThresholdSec < 0 {
		return nil, apierr.Validation("threshold_sec", "must not be negative")
	}
	var n int64
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		t, err := events.Writable(ctx, &s.d.Env, q, c.Company(), req.Task, false, req.AllowLocked)
		if err != nil {
			return err
		}
		var before *int64
		if req.ThresholdSec > 0 {
			b := s.d.Now().UnixMilli() - req.ThresholdSec*1000
			before = &b
		}
		n, err = s.d.DB.Events().DeleteLogs(ctx, q, t.ID, before)
		return err
	})
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
	var n int64
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		t, err := events.Writable(ctx, &s.d.Env, q, c.Company(), id, model, allowLocked)
		if err != nil {
			return err
		}
		n, err = s.d.DB.Events().DeleteFor(ctx, q, []string{t.ID})
		return err
	})
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
