package events

import (
	"context"
	"encoding/json"
	"io"
	"math"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// LogRequest is a page of a task's console log.
type LogRequest struct {
	Task    string
	Metrics []eventstore.MetricFilter
	// Earlier pages towards older events (newest first).
	Earlier bool
	// Order ("asc" or "desc", "" for the paging direction) orders the page.
	Order string
	// From is the timestamp the page starts after (0: the newest or the
	// oldest event).
	From int64
	// Limit is the page size before completion (see LogPage).
	Limit int
	// MaxTotal caps the count of the log's events.
	MaxTotal int
}

// LogPage is a rendered page of a log and how many events the log holds.
type LogPage struct {
	Events []json.RawMessage
	Total  int
}

// ReadLog reads a page of a readable task's console log, completed with
// the events sharing the last event's time, so that the next page can
// start after that time.
func ReadLog(ctx context.Context, d *domain.Env, company string, r LogRequest) (*LogPage, error) {
	t, err := Readable(ctx, d, company, r.Task, false)
	if err != nil {
		return nil, err
	}
	lq := eventstore.LogQuery{Task: t.ID, Metrics: r.Metrics, Desc: r.Earlier, Limit: r.Limit}
	if r.From != 0 {
		lq.From = &r.From
	}
	es, q := eventstore.Of(d.DB), d.DB.Read()
	rows, err := es.Logs(ctx, q, lq)
	if err != nil {
		return nil, err
	}
	if len(rows) == lq.Limit && len(rows) > 0 {
		last := rows[len(rows)-1]
		rest, err := es.Logs(ctx, q, eventstore.LogQuery{Task: t.ID, Metrics: lq.Metrics, Desc: r.Earlier, AtTS: &last.TS, AfterID: last.ID})
		if err != nil {
			return nil, err
		}
		rows = append(rows, rest...)
	}
	if (r.Earlier && r.Order == "asc") || (!r.Earlier && r.Order == "desc") {
		for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
			rows[i], rows[j] = rows[j], rows[i]
		}
	}
	total, err := es.CountLogs(ctx, q, t.ID, lq.Metrics, r.MaxTotal)
	if err != nil {
		return nil, err
	}
	page := &LogPage{Events: make([]json.RawMessage, len(rows)), Total: total}
	for i := range rows {
		page.Events[i] = RenderLog(&rows[i])
	}
	return page, nil
}

// WriteLog writes a task's whole log to w, oldest first, as text lines of
// format, or as JSON lines when format is nil.
func WriteLog(ctx context.Context, d *domain.Env, taskID string, format *LineFormat, w io.Writer) error {
	es, q := eventstore.Of(d.DB), d.DB.Read()
	lq := eventstore.LogQuery{Task: taskID, Limit: 5000, After: true, AfterTS: math.MinInt64, AfterID: math.MinInt64}
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
				buf = append(buf, jsonx.Restore(RenderLogLine(&rows[i]))...)
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
}

// LogClearing says which log events of a task ClearLog deletes: those older
// than OlderThanSec seconds when above 0, only those of the Include metrics
// when given, never those of the Exclude metrics (the reference's
// include_metrics and exclude_metrics).
type LogClearing struct {
	OlderThanSec     int64
	Include, Exclude []string
}

// ClearLog deletes the selected log events of a writable task and returns
// how many.
func ClearLog(ctx context.Context, d *domain.Env, company, taskID string, allowLocked bool, sel LogClearing) (int64, error) {
	var n int64
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		t, err := Writable(ctx, d, q, company, taskID, false, allowLocked)
		if err != nil {
			return err
		}
		del := eventstore.LogDeletion{Include: sel.Include, Exclude: sel.Exclude}
		if sel.OlderThanSec > 0 {
			b := d.Now().UnixMilli() - sel.OlderThanSec*1000
			del.Before = &b
		}
		n, err = eventstore.Of(d.DB).DeleteLogs(ctx, q, t.ID, del)
		return err
	})
	return n, err
}

// DeleteFor deletes every event of a writable task (or model) and returns
// how many. A task's MLflow metric history goes with them: its finite
// points are its scalar series' (see internal/mlflow).
func DeleteFor(ctx context.Context, d *domain.Env, company, id string, model, allowLocked bool) (int64, error) {
	var n int64
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		t, err := Writable(ctx, d, q, company, id, model, allowLocked)
		if err != nil {
			return err
		}
		if n, err = eventstore.Of(d.DB).DeleteFor(ctx, q, []string{t.ID}); err != nil || model {
			return err
		}
		return d.DB.DeleteMetricPoints(ctx, q, []string{t.ID})
	})
	return n, err
}
