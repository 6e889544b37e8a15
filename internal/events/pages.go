package events

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// The paged reads below keep their state in a cursor that travels in a
// signed scroll id: the first request's selection, the total and the
// position reached. Each read checks the task (or model) is readable,
// counts on the first page when asked, reads the next page and advances
// the cursor.

// EventsCursor is the state of a task events read.
type EventsCursor struct {
	Task    string                    `json:"t"`
	Model   bool                      `json:"m,omitempty"`
	Type    Type                      `json:"y,omitempty"`
	Metrics []eventstore.MetricFilter `json:"f,omitempty"`
	Desc    bool                      `json:"d,omitempty"`
	Batch   int                       `json:"n"`
	Total   *int                      `json:"c,omitempty"`
	Pos     *Pos                      `json:"at,omitempty"`
	Done    bool                      `json:"e,omitempty"`
}

// TaskEvents reads the next page of a task's events (Batch of them);
// count sets the total (capped at maxTotal).
func TaskEvents(ctx context.Context, d *domain.Env, company string, cur *EventsCursor, count bool, maxTotal int) ([]json.RawMessage, error) {
	if _, err := Readable(ctx, d, company, cur.Task, cur.Model); err != nil {
		return nil, err
	}
	r := &Reader{DB: d.DB}
	sel := Selection{Task: cur.Task, Type: cur.Type, Metrics: cur.Metrics, Desc: cur.Desc}
	if count {
		n, err := r.Count(ctx, sel, maxTotal)
		if err != nil {
			return nil, err
		}
		cur.Total = &n
	}
	return nextPage(ctx, r, sel, &cur.Pos, &cur.Done, cur.Batch)
}

// nextPage reads n events after *pos unless *done, and moves both on.
func nextPage(ctx context.Context, r *Reader, sel Selection, pos **Pos, done *bool, n int) ([]json.RawMessage, error) {
	out := []json.RawMessage{}
	if *done {
		return out, nil
	}
	evs, last, err := r.Events(ctx, sel, *pos, n)
	if err != nil {
		return nil, err
	}
	for _, e := range evs {
		out = append(out, e)
	}
	*pos, *done = last, len(evs) < n
	return out, nil
}

// MetricDataCursor is the state of a scalar metric data read.
type MetricDataCursor struct {
	Task   string `json:"t"`
	Model  bool   `json:"m,omitempty"`
	Metric string `json:"f"`
	Total  int    `json:"c"`
	Pos    *Pos   `json:"at,omitempty"`
	Done   bool   `json:"e,omitempty"`
}

// MetricDataPage is the page size of scalar metric data reads.
const MetricDataPage = 500

// ScalarMetricData reads the next page of one metric's scalar events,
// highest iterations first; first sets the total (capped at maxTotal).
func ScalarMetricData(ctx context.Context, d *domain.Env, company string, cur *MetricDataCursor, first bool, maxTotal int) ([]json.RawMessage, error) {
	if _, err := Readable(ctx, d, company, cur.Task, cur.Model); err != nil {
		return nil, err
	}
	r := &Reader{DB: d.DB}
	sel := Selection{Task: cur.Task, Type: Scalar, Metrics: []eventstore.MetricFilter{{Metric: cur.Metric}}, Desc: true}
	if first {
		n, err := r.Count(ctx, sel, maxTotal)
		if err != nil {
			return nil, err
		}
		cur.Total = n
	}
	return nextPage(ctx, r, sel, &cur.Pos, &cur.Done, MetricDataPage)
}

// RawCursor is the state of a raw scalar points read.
type RawCursor struct {
	Task   string                  `json:"t"`
	Model  bool                    `json:"m,omitempty"`
	Metric eventstore.MetricFilter `json:"f"`
	// Key orders the points: "iter", "timestamp" or "iso_time".
	Key   string `json:"k"`
	Batch int    `json:"n"`
	Total *int   `json:"c,omitempty"`
	Pos   *Pos   `json:"at,omitempty"`
	Done  bool   `json:"e,omitempty"`
}

// RawScalars reads the next page of one metric's points per variant,
// ordered by iteration or time; count sets the total.
func RawScalars(ctx context.Context, d *domain.Env, company string, cur *RawCursor, count bool) (*RawPoints, error) {
	if _, err := Readable(ctx, d, company, cur.Task, cur.Model); err != nil {
		return nil, err
	}
	r := &Reader{DB: d.DB}
	sel := Selection{Task: cur.Task, Type: Scalar, Metrics: []eventstore.MetricFilter{cur.Metric}}
	if count {
		n, err := r.CountRaw(ctx, sel)
		if err != nil {
			return nil, err
		}
		cur.Total = &n
	}
	if cur.Done {
		return &RawPoints{Variants: map[string]*RawVariant{}}, nil
	}
	pts, err := r.Raw(ctx, sel, cur.Key != "iter", cur.Pos, cur.Batch)
	if err != nil {
		return nil, err
	}
	if pts.Last != nil {
		cur.Pos = pts.Last
	}
	cur.Done = pts.Returned < cur.Batch
	return pts, nil
}
