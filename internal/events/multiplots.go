package events

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// MultiPlotsCursor is the state of a multi-task plots read, kept in its
// signed scroll id between pages.
type MultiPlotsCursor struct {
	Tasks     []string                  `json:"t"`
	Model     bool                      `json:"m,omitempty"`
	Metrics   []eventstore.MetricFilter `json:"f,omitempty"`
	Iters     int                       `json:"n"`
	PerMetric bool                      `json:"pm,omitempty"`
	Total     int                       `json:"c"`
	Iter      *int64                    `json:"i,omitempty"`
	ID        int64                     `json:"id,omitempty"`
	Done      bool                      `json:"e,omitempty"`
}

// PlotGroup is the plots of one task at one iteration.
type PlotGroup struct {
	// Name is the task's name.
	Name  string
	Plots []json.RawMessage
}

// PlotGroups nest plot groups by metric, variant, task and iteration.
type PlotGroups map[string]map[string]map[string]map[string]*PlotGroup

// multiPlotsPage is the page size of multi-task plot reads.
const multiPlotsPage = 1000

// MultiTaskPlots reads the next page of the plots of readable tasks (or
// models) at their last iterations and advances the cursor; first counts
// the total (capped at maxTotal) into it.
func MultiTaskPlots(ctx context.Context, d *domain.Env, company string, cur *MultiPlotsCursor, first bool, maxTotal int) (PlotGroups, error) {
	ts, err := ReadableMany(ctx, d, company, cur.Tasks, cur.Model)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, t := range ts {
		names[t.ID] = t.Name
	}
	es, q := eventstore.Of(d.DB), d.DB.Read()
	mq := eventstore.MultiTaskPlotQuery{Tasks: IDs(ts), Metrics: cur.Metrics, Iters: cur.Iters, PerMetric: cur.PerMetric, Limit: multiPlotsPage}
	if first {
		if cur.Total, err = es.CountMultiTaskPlots(ctx, q, mq, maxTotal); err != nil {
			return nil, err
		}
	}
	var rows []eventstore.DocRow
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
	groups := PlotGroups{}
	return groups, groups.add(rows, cur.Iters, names)
}

// add nests plots by metric, variant, task and iteration, keeping per
// metric/variant/task the `iters` with the highest iterations.
func (dst PlotGroups) add(rows []eventstore.DocRow, iters int, names map[string]string) error {
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Iter > rows[j].Iter })
	kept := map[[3]string]int{}
	for i := range rows {
		r := &rows[i]
		k := [3]string{r.Metric, r.Variant, r.Task}
		if kept[k] >= iters {
			continue
		}
		kept[k]++
		ev, err := RenderDoc(r)
		if err != nil {
			return err
		}
		if dst[r.Metric] == nil {
			dst[r.Metric] = map[string]map[string]map[string]*PlotGroup{}
		}
		if dst[r.Metric][r.Variant] == nil {
			dst[r.Metric][r.Variant] = map[string]map[string]*PlotGroup{}
		}
		byIter := dst[r.Metric][r.Variant][r.Task]
		if byIter == nil {
			byIter = map[string]*PlotGroup{}
			dst[r.Metric][r.Variant][r.Task] = byIter
		}
		it := strconv.FormatInt(r.Iter, 10)
		if byIter[it] == nil {
			byIter[it] = &PlotGroup{Name: names[r.Task], Plots: []json.RawMessage{}}
		}
		byIter[it].Plots = append(byIter[it].Plots, ev)
	}
	return nil
}
