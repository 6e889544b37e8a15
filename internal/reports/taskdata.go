package reports

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/models"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/tasks"
)

// maxPlots bounds the plots one get_task_data read gathers.
const maxPlots = 10000

// Charts asks for the events of one chart kind: the last Iters
// iterations (0 = 1) of the Metrics (none = all).
type Charts struct {
	Iters   int
	Metrics []eventstore.MetricFilter
	// PerMetric takes the last iterations per task metric (plots).
	PerMetric bool
}

// Histogram asks for scalar series.
type Histogram struct {
	Samples int
	Key     events.HistKey
	Metrics []eventstore.MetricFilter
}

// TaskDataInput is a reports.get_task_data: a TasksQuery (or, with
// ModelEvents, a ModelsQuery) and the events of the records it finds that
// a report's charts draw.
type TaskDataInput struct {
	Company            string
	Request            *query.Request
	Body               []byte
	Projects           []string
	IncludeSubprojects bool
	AllowPublic        bool
	ModelEvents        bool
	DebugImages, Plots *Charts
	Histogram          *Histogram
	SingleValues       bool
}

// TaskData is what get_task_data found: the records and, for each chart
// kind asked, their events.
type TaskData struct {
	Items    []map[string]any
	ScrollID *string
	// Images are the debug images per record, first page, with Pages
	// aligned to them.
	Images       []events.TaskBrowse
	ImagePages   [][]events.Iteration
	Plots        events.PlotGroups
	Histograms   []events.TaskCurves
	SingleValues []events.TaskSingleValues
}

// GetTaskData runs the query and reads the asked events of the records.
func GetTaskData(ctx context.Context, env *domain.Env, in TaskDataInput) (*TaskData, error) {
	var res *query.Result
	var err error
	if in.ModelEvents {
		res, err = models.List(ctx, env, models.ListInput{Company: in.Company, Request: in.Request, Body: in.Body,
			IncludeSubprojects: in.IncludeSubprojects, Ex: true, AllowPublic: in.AllowPublic})
	} else {
		res, err = tasks.List(ctx, env, tasks.ListInput{Company: in.Company, Request: in.Request, Body: in.Body,
			Projects: in.Projects, IncludeSubprojects: in.IncludeSubprojects, SearchHidden: in.Request.SearchHidden,
			Ex: true, AllowPublic: in.AllowPublic})
	}
	if err != nil {
		return nil, err
	}
	out := &TaskData{Items: res.Items, ScrollID: res.ScrollID}
	var ids []string
	for _, it := range res.Items {
		if id, _ := it["id"].(string); id != "" {
			ids = append(ids, id)
		}
	}
	if err := out.readEvents(ctx, env, in, ids); err != nil {
		return nil, err
	}
	return out, nil
}

// readEvents fills the asked chart kinds; with no records each is empty.
func (out *TaskData) readEvents(ctx context.Context, env *domain.Env, in TaskDataInput, ids []string) error {
	if in.DebugImages != nil {
		out.Images, out.ImagePages = []events.TaskBrowse{}, [][]events.Iteration{}
	}
	if in.Plots != nil {
		out.Plots = events.PlotGroups{}
	}
	if in.SingleValues {
		out.SingleValues = []events.TaskSingleValues{}
	}
	if len(ids) == 0 {
		return nil
	}
	var err error
	if in.DebugImages != nil {
		if out.Images, out.ImagePages, err = debugImages(ctx, env, ids, in.DebugImages); err != nil {
			return err
		}
	}
	if in.Plots != nil {
		cur := events.MultiPlotsCursor{Tasks: ids, Model: in.ModelEvents, Metrics: in.Plots.Metrics,
			Iters: max(in.Plots.Iters, 1), PerMetric: in.Plots.PerMetric}
		if out.Plots, err = events.MultiTaskPlots(ctx, env, in.Company, &cur, true, maxPlots); err != nil {
			return err
		}
	}
	if h := in.Histogram; h != nil {
		if out.Histograms, err = events.Histograms(ctx, env, in.Company, ids, in.ModelEvents, h.Metrics, h.Samples, h.Key); err != nil {
			return err
		}
	}
	if in.SingleValues {
		if out.SingleValues, err = events.SingleValues(ctx, env, in.Company, ids, in.ModelEvents, nil); err != nil {
			return err
		}
	}
	return nil
}

// debugImages reads the first page of the debug images of the records,
// latest iterations first.
func debugImages(ctx context.Context, env *domain.Env, ids []string, c *Charts) ([]events.TaskBrowse, [][]events.Iteration, error) {
	tm := events.TaskMetrics{}
	for _, id := range ids {
		tm[id] = map[string][]string{}
		for _, m := range c.Metrics {
			tm[id][m.Metric] = m.Variants
		}
	}
	b := &events.Browser{DB: env.DB, Type: events.Image}
	st, err := b.Init(ctx, tm, ids)
	if err != nil {
		return nil, nil, err
	}
	pages, err := b.Page(ctx, st, max(c.Iters, 1), true)
	if err != nil {
		return nil, nil, err
	}
	return st.Tasks, pages, nil
}
