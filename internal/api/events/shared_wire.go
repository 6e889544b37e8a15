package events

import (
	"encoding/json"

	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/jsonx"
)

// The answer shapes other services reuse (reports.get_task_data draws the
// same charts as the events reads).

// MetricVariants is the API's events.metric_variants.
type MetricVariants = metricVariants

// ValidateMetrics refuses entries without a metric.
func ValidateMetrics(field string, ms []MetricVariants) error { return validateMetrics(field, ms) }

// ValidKey refuses an unknown histogram key.
func ValidKey(k string) error { return validKey(k) }

// Curve is one series of a histogram answer.
type Curve = curveOut

// CurvesByTask is {metric: {variant: {task: curve}}}, the shape of
// multi-task histograms.
func CurvesByTask(tcs []events.TaskCurves, key events.HistKey) map[string]map[string]map[string]*Curve {
	out := map[string]map[string]map[string]*Curve{}
	for _, tc := range tcs {
		for _, cv := range tc.Curves {
			if out[cv.Metric] == nil {
				out[cv.Metric] = map[string]map[string]*Curve{}
			}
			if out[cv.Metric][cv.Variant] == nil {
				out[cv.Metric][cv.Variant] = map[string]*Curve{}
			}
			out[cv.Metric][cv.Variant][tc.Task.ID] = toCurve(cv, tc.Task.Name, key, tc.Task)
		}
	}
	return out
}

// PlotGroup is the plots of one task at one iteration.
type PlotGroup = plotGroup

// PlotsByTask is {metric: {variant: {task: {iter: {name, plots}}}}}.
func PlotsByTask(groups events.PlotGroups) map[string]map[string]map[string]map[string]*PlotGroup {
	out := map[string]map[string]map[string]map[string]*PlotGroup{}
	for metric, byVariant := range groups {
		out[metric] = map[string]map[string]map[string]*PlotGroup{}
		for variant, byTask := range byVariant {
			out[metric][variant] = map[string]map[string]*PlotGroup{}
			for task, byIter := range byTask {
				out[metric][variant][task] = map[string]*PlotGroup{}
				for iter, g := range byIter {
					out[metric][variant][task][iter] = &plotGroup{Name: g.Name, Plots: g.Plots}
				}
			}
		}
	}
	return out
}

// TaskIterations is the events of one task by iteration.
type TaskIterations = taskIterations

// IterationsByTask pairs browsed tasks with their pages of iterations.
func IterationsByTask(tasks []events.TaskBrowse, pages [][]events.Iteration) []TaskIterations {
	out := make([]TaskIterations, len(tasks))
	for i, tb := range tasks {
		ti := taskIterations{Task: tb.Task, Iterations: []iterationOut{}}
		for _, it := range pages[i] {
			io := iterationOut{Iter: it.Iter, Events: make([]json.RawMessage, len(it.Events))}
			for j, e := range it.Events {
				io.Events[j] = e
			}
			ti.Iterations = append(ti.Iterations, io)
		}
		out[i] = ti
	}
	return out
}

// TaskSingleValues is the single values of one task.
type TaskSingleValues = taskSingleValues

// SingleValuesByTask converts single values for the answer.
func SingleValuesByTask(tasks []events.TaskSingleValues) []TaskSingleValues {
	out := make([]TaskSingleValues, len(tasks))
	for i, tv := range tasks {
		out[i] = taskSingleValues{Task: tv.Task.ID, TaskName: tv.Task.Name, Values: make([]singleValue, len(tv.Values))}
		for j, v := range tv.Values {
			out[i].Values[j] = singleValue{Metric: v.Metric, Variant: v.Variant, Value: jsonx.Float(v.Value), Timestamp: v.Timestamp}
		}
	}
	return out
}
