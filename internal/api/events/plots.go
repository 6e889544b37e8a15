package events

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type taskPlotsRequest struct {
	Task        string           `json:"task" required:"true"`
	Iters       int              `json:"iters"`
	Metrics     []metricVariants `json:"metrics"`
	ScrollID    string           `json:"scroll_id"`
	NoScroll    bool             `json:"no_scroll"`
	ModelEvents bool             `json:"model_events"`
}

func (r *taskPlotsRequest) Validate() error {
	if r.Iters < 0 {
		return apierr.Validation("iters", "must not be negative")
	}
	return validateMetrics("metrics", r.Metrics)
}

type taskPlotsResponse struct {
	Plots    []json.RawMessage `json:"plots"`
	Returned int               `json:"returned"`
	Total    int               `json:"total"`
	ScrollID *string           `json:"scroll_id"`
}

// getTaskPlots returns, per metric and variant, the plots of the last
// `iters` iterations (one read: no scroll).
func (s *service) getTaskPlots(ctx context.Context, c *rpc.Call, req *taskPlotsRequest) (*taskPlotsResponse, error) {
	t, err := s.readable(ctx, c, req.Task, req.ModelEvents)
	if err != nil {
		return nil, err
	}
	rows, err := s.d.DB.Events().LatestDocs(ctx, s.d.DB.Read(), t.ID, string(events.Plot), filters(req.Metrics), max(req.Iters, 1))
	if err != nil {
		return nil, err
	}
	out := &taskPlotsResponse{Plots: make([]json.RawMessage, len(rows))}
	for i := range rows {
		if out.Plots[i], err = events.RenderDoc(&rows[i]); err != nil {
			return nil, err
		}
	}
	out.Returned, out.Total = len(rows), min(len(rows), maxTotal)
	return out, nil
}

type multiTaskPlotsRequest struct {
	Tasks                  taskIDs          `json:"tasks" required:"true"`
	Iters                  int              `json:"iters"`
	LastItersPerTaskMetric *bool            `json:"last_iters_per_task_metric"`
	Metrics                []metricVariants `json:"metrics"`
	ScrollID               string           `json:"scroll_id"`
	NoScroll               bool             `json:"no_scroll"`
	ModelEvents            bool             `json:"model_events"`
}

func (r *multiTaskPlotsRequest) Validate() error {
	if len(r.Tasks) == 0 {
		return apierr.Validation("tasks", "at least one task is required")
	}
	if r.Iters < 0 {
		return apierr.Validation("iters", "must not be negative")
	}
	return validateMetrics("metrics", r.Metrics)
}

// multiPlotsCursor is the state of get_multi_task_plots scroll ids.
type multiPlotsCursor struct {
	Tasks     []string             `json:"t"`
	Model     bool                 `json:"m,omitempty"`
	Metrics   []store.MetricFilter `json:"f,omitempty"`
	Iters     int                  `json:"n"`
	PerMetric bool                 `json:"pm,omitempty"`
	Total     int                  `json:"c"`
	Iter      *int64               `json:"i,omitempty"`
	ID        int64                `json:"id,omitempty"`
	Done      bool                 `json:"e,omitempty"`
}

// plotGroup is the plots of one task at one iteration.
type plotGroup struct {
	Name  string            `json:"name"`
	Plots []json.RawMessage `json:"plots"`
}

type multiTaskPlotsResponse struct {
	Plots    map[string]map[string]map[string]map[string]*plotGroup `json:"plots"`
	Returned int                                                    `json:"returned"`
	Total    int                                                    `json:"total"`
	ScrollID *string                                                `json:"scroll_id"`
}

// multiPlotsPage is the page size of get_multi_task_plots.
const multiPlotsPage = 1000

// getMultiTaskPlots returns the plots of several tasks at their last
// iterations, as {metric: {variant: {task: {iter: {name, plots}}}}}.
func (s *service) getMultiTaskPlots(ctx context.Context, c *rpc.Call, req *multiTaskPlotsRequest) (*multiTaskPlotsResponse, error) {
	var cur multiPlotsCursor
	if req.ScrollID != "" {
		if err := s.scrolls.Open(req.ScrollID, c.Company(), "multi_plots", &cur); err != nil {
			return nil, err
		}
	} else {
		cur = multiPlotsCursor{Tasks: req.Tasks, Model: req.ModelEvents, Metrics: filters(req.Metrics), Iters: max(req.Iters, 1),
			PerMetric: req.LastItersPerTaskMetric == nil || *req.LastItersPerTaskMetric}
	}
	ts, err := s.readableMany(ctx, c, cur.Tasks, cur.Model)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, t := range ts {
		names[t.ID] = t.Name
	}
	es, q := s.d.DB.Events(), s.d.DB.Read()
	mq := store.MultiTaskPlotQuery{Tasks: ids(ts), Metrics: cur.Metrics, Iters: cur.Iters, PerMetric: cur.PerMetric, Limit: multiPlotsPage}
	if req.ScrollID == "" {
		if cur.Total, err = es.CountMultiTaskPlots(ctx, q, mq, maxTotal); err != nil {
			return nil, err
		}
	}
	var rows []store.DocRow
	if !cur.Done {
		if cur.Iter != nil {
			mq.After, mq.AfterIter, mq.AfterID = true, *cur.Iter, cur.ID
		}
		if rows, err = es.MultiTaskPlots(ctx, q, mq); err != nil {
			return nil, err
		}
		if n := len(rows); n > 0 {
			it := rows[n-1].Iter
			cur.Iter, cur.ID = &it, rows[n-1].ID
		}
		cur.Done = len(rows) < multiPlotsPage
	}
	out := &multiTaskPlotsResponse{Plots: map[string]map[string]map[string]map[string]*plotGroup{}, Total: cur.Total}
	if err := groupPlots(out.Plots, rows, cur.Iters, names); err != nil {
		return nil, err
	}
	out.Returned = len(out.Plots)
	if !req.NoScroll {
		id, err := s.scrolls.Sign(c.Company(), "multi_plots", cur)
		if err != nil {
			return nil, err
		}
		out.ScrollID = &id
	}
	return out, nil
}

// groupPlots nests plots by metric, variant, task and iteration, keeping
// per metric/variant/task the `iters` with the highest iterations.
func groupPlots(dst map[string]map[string]map[string]map[string]*plotGroup, rows []store.DocRow, iters int, names map[string]string) error {
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Iter > rows[j].Iter })
	kept := map[[3]string]int{}
	for i := range rows {
		r := &rows[i]
		k := [3]string{r.Metric, r.Variant, r.Task}
		if kept[k] >= iters {
			continue
		}
		kept[k]++
		ev, err := events.RenderDoc(r)
		if err != nil {
			return err
		}
		if dst[r.Metric] == nil {
			dst[r.Metric] = map[string]map[string]map[string]*plotGroup{}
		}
		if dst[r.Metric][r.Variant] == nil {
			dst[r.Metric][r.Variant] = map[string]map[string]*plotGroup{}
		}
		byIter := dst[r.Metric][r.Variant][r.Task]
		if byIter == nil {
			byIter = map[string]*plotGroup{}
			dst[r.Metric][r.Variant][r.Task] = byIter
		}
		it := strconv.FormatInt(r.Iter, 10)
		if byIter[it] == nil {
			byIter[it] = &plotGroup{Name: names[r.Task], Plots: []json.RawMessage{}}
		}
		byIter[it].Plots = append(byIter[it].Plots, ev)
	}
	return nil
}

// taskMetric is the API's events.task_metric_variants.
type taskMetric struct {
	Task     string   `json:"task"`
	Metric   *string  `json:"metric"`
	Variants []string `json:"variants"`
}

type browseRequest struct {
	Metrics         []taskMetric `json:"metrics" required:"true"`
	Iters           *int         `json:"iters"`
	NavigateEarlier *bool        `json:"navigate_earlier"`
	Refresh         bool         `json:"refresh"`
	ScrollID        string       `json:"scroll_id"`
	ModelEvents     bool         `json:"model_events"`
}

func (r *browseRequest) Validate() error {
	if len(r.Metrics) == 0 {
		return apierr.Validation("metrics", "at least one item is required")
	}
	for _, m := range r.Metrics {
		if m.Task == "" {
			return apierr.Validation("metrics.task", "field is required")
		}
	}
	if r.Iters != nil && *r.Iters < 1 {
		return apierr.Validation("iters", "must be at least 1")
	}
	return nil
}

// taskMetrics groups the request per task; an entry without metric asks
// for all of the task's metrics.
func (r *browseRequest) taskMetrics() (events.TaskMetrics, []string) {
	tm := events.TaskMetrics{}
	var order []string
	all := map[string]bool{}
	for _, m := range r.Metrics {
		if tm[m.Task] == nil {
			tm[m.Task] = map[string][]string{}
			order = append(order, m.Task)
		}
		if m.Metric == nil {
			all[m.Task] = true
			continue
		}
		tm[m.Task][*m.Metric] = m.Variants
	}
	for t := range all {
		tm[t] = map[string][]string{}
	}
	return tm, order
}

type iterationOut struct {
	Iter   int64             `json:"iter"`
	Events []json.RawMessage `json:"events"`
}

type taskIterations struct {
	Task       string         `json:"task"`
	Iterations []iterationOut `json:"iterations"`
}

type browseResponse struct {
	ScrollID string           `json:"scroll_id"`
	Metrics  []taskIterations `json:"metrics"`
}

// debugImages pages through tasks' debug images by iteration.
func (s *service) debugImages(ctx context.Context, c *rpc.Call, req *browseRequest) (*browseResponse, error) {
	return s.browse(ctx, c, req, events.Image)
}

// plots pages through tasks' plots by iteration.
func (s *service) plots(ctx context.Context, c *rpc.Call, req *browseRequest) (*browseResponse, error) {
	return s.browse(ctx, c, req, events.Plot)
}

func (s *service) browse(ctx context.Context, c *rpc.Call, req *browseRequest, typ events.Type) (*browseResponse, error) {
	tm, order := req.taskMetrics()
	if _, err := s.readableMany(ctx, c, order, req.ModelEvents); err != nil {
		return nil, err
	}
	b := &events.Browser{DB: s.d.DB, Type: typ}
	kind := "browse_" + string(typ)
	var st events.BrowseState
	id := req.ScrollID
	if id != "" {
		if err := s.scrolls.LoadState(ctx, id, c.Company(), kind, &st); err != nil {
			return nil, err
		}
		if req.Refresh {
			if err := b.Refresh(ctx, &st, tm); err != nil {
				return nil, err
			}
		}
	} else {
		fresh, err := b.Init(ctx, tm, order)
		if err != nil {
			return nil, err
		}
		st = *fresh
	}
	iters := 1
	if req.Iters != nil {
		iters = *req.Iters
	}
	pages, err := b.Page(ctx, &st, iters, req.NavigateEarlier == nil || *req.NavigateEarlier)
	if err != nil {
		return nil, err
	}
	if id == "" {
		id, err = s.scrolls.NewState(ctx, c.Company(), kind, &st)
	} else {
		err = s.scrolls.SaveState(ctx, id, c.Company(), kind, &st)
	}
	if err != nil {
		return nil, err
	}
	out := &browseResponse{ScrollID: id, Metrics: make([]taskIterations, len(st.Tasks))}
	for i, tb := range st.Tasks {
		ti := taskIterations{Task: tb.Task, Iterations: []iterationOut{}}
		for _, it := range pages[i] {
			io := iterationOut{Iter: it.Iter, Events: make([]json.RawMessage, len(it.Events))}
			for j, e := range it.Events {
				io.Events[j] = e
			}
			ti.Iterations = append(ti.Iterations, io)
		}
		out.Metrics[i] = ti
	}
	return out, nil
}
