package tasks

import (
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// The types below are a task as the API answers it. They are their own
// types so that the stored row can change without changing answers:
// toWire is the one place a stored task becomes an answer.

// task is a task as the API answers it.
type task struct {
	ID               string                               `json:"id"`
	Company          string                               `json:"company"`
	User             string                               `json:"user"`
	Name             string                               `json:"name"`
	Type             string                               `json:"type"`
	Status           string                               `json:"status"`
	StatusReason     *string                              `json:"status_reason,omitempty"`
	StatusMessage    *string                              `json:"status_message,omitempty"`
	StatusChanged    *jsonx.Time                          `json:"status_changed,omitempty"`
	Comment          *string                              `json:"comment,omitempty"`
	Report           *string                              `json:"report,omitempty"`
	Created          jsonx.Time                           `json:"created"`
	Started          *jsonx.Time                          `json:"started,omitempty"`
	Completed        *jsonx.Time                          `json:"completed,omitempty"`
	Published        *jsonx.Time                          `json:"published,omitempty"`
	ActiveDuration   *int64                               `json:"active_duration,omitempty"`
	Parent           string                               `json:"parent,omitempty"`
	Project          string                               `json:"project,omitempty"`
	Output           taskOutput                           `json:"output"`
	Execution        execution                            `json:"execution"`
	Script           script                               `json:"script"`
	Tags             []string                             `json:"tags"`
	SystemTags       []string                             `json:"system_tags"`
	LastUpdate       jsonx.Time                           `json:"last_update"`
	LastChange       jsonx.Time                           `json:"last_change"`
	LastChangedBy    string                               `json:"last_changed_by"`
	LastIteration    int64                                `json:"last_iteration"`
	LastMetrics      map[string]map[string]*metricSummary `json:"last_metrics"`
	MetricStats      map[string]any                       `json:"metric_stats"`
	Hyperparams      map[string]map[string]*paramItem     `json:"hyperparams"`
	Configuration    map[string]*configItem               `json:"configuration"`
	Runtime          map[string]any                       `json:"runtime"`
	Models           taskModels                           `json:"models"`
	Container        map[string]*string                   `json:"container"`
	ReportAssets     []string                             `json:"report_assets"`
	LastWorker       string                               `json:"last_worker,omitempty"`
	LastWorkerReport *jsonx.Time                          `json:"last_worker_report,omitempty"`
	EnqueueStatus    string                               `json:"enqueue_status,omitempty"`
	CompanyOrigin    string                               `json:"company_origin,omitempty"`
}

// taskOutput is task.output.
type taskOutput struct {
	Destination *string `json:"destination,omitempty"`
	Error       *string `json:"error,omitempty"`
	Result      *string `json:"result,omitempty"`
}

// execution is task.execution.
type execution struct {
	Queue       string           `json:"queue,omitempty"`
	Parameters  map[string]any   `json:"parameters"`
	ModelDesc   map[string]any   `json:"model_desc"`
	ModelLabels map[string]int64 `json:"model_labels"`
	Framework   *string          `json:"framework,omitempty"`
	Artifacts   []*artifact      `json:"artifacts"`
	TestSplit   int64            `json:"test_split"`
	DockerCmd   *string          `json:"docker_cmd,omitempty"`
}

// script is task.script.
type script struct {
	Binary       string         `json:"binary"`
	Repository   string         `json:"repository"`
	Tag          *string        `json:"tag,omitempty"`
	Branch       *string        `json:"branch,omitempty"`
	VersionNum   *string        `json:"version_num,omitempty"`
	EntryPoint   string         `json:"entry_point"`
	WorkingDir   *string        `json:"working_dir,omitempty"`
	Requirements map[string]any `json:"requirements"`
	Diff         *string        `json:"diff,omitempty"`
}

// artifact is one task artifact.
type artifact struct {
	Key         string         `json:"key"`
	Type        string         `json:"type"`
	Mode        string         `json:"mode,omitempty"`
	URI         *string        `json:"uri,omitempty"`
	Hash        *string        `json:"hash,omitempty"`
	ContentSize *int64         `json:"content_size,omitempty"`
	Timestamp   *int64         `json:"timestamp,omitempty"`
	TypeData    map[string]any `json:"type_data,omitempty"`
	DisplayData [][]any        `json:"display_data"`
}

// wireArtifact answers display_data as [] when the artifact has none, as
// the reference does (it stores the list's default): the web app walks
// it for every artifact it compares.
func wireArtifact(a store.Artifact) artifact {
	w := artifact(a)
	if w.DisplayData == nil {
		w.DisplayData = [][]any{}
	}
	return w
}

// withArtifactDisplayData does for a listed task document what
// wireArtifact does for a single read.
func withArtifactDisplayData(item map[string]any) {
	exec, _ := item["execution"].(map[string]any)
	arts, _ := exec["artifacts"].([]any)
	for _, a := range arts {
		if m, ok := a.(map[string]any); ok && m["display_data"] == nil {
			m["display_data"] = []any{}
		}
	}
}

// paramItem is one hyper parameter.
type paramItem struct {
	Section     string  `json:"section"`
	Name        string  `json:"name"`
	Value       string  `json:"value"`
	Type        *string `json:"type,omitempty"`
	Description *string `json:"description,omitempty"`
}

// configItem is one configuration entry.
type configItem struct {
	Name        string  `json:"name"`
	Value       string  `json:"value"`
	Type        *string `json:"type,omitempty"`
	Description *string `json:"description,omitempty"`
}

// taskModels holds the input and output model references.
type taskModels struct {
	Input  []*modelItem `json:"input"`
	Output []*modelItem `json:"output"`
}

// modelItem is one named model reference.
type modelItem struct {
	Name    string      `json:"name"`
	Model   string      `json:"model"`
	Updated *jsonx.Time `json:"updated,omitempty"`
}

// metricSummary is one metric/variant summary of last_metrics.
type metricSummary struct {
	Metric              string       `json:"metric"`
	Variant             string       `json:"variant"`
	Value               jsonx.Float  `json:"value"`
	MinValue            jsonx.Float  `json:"min_value"`
	MinValueIteration   int64        `json:"min_value_iteration"`
	MaxValue            jsonx.Float  `json:"max_value"`
	MaxValueIteration   int64        `json:"max_value_iteration"`
	FirstValue          *jsonx.Float `json:"first_value,omitempty"`
	FirstValueIteration *int64       `json:"first_value_iteration,omitempty"`
	MeanValue           *jsonx.Float `json:"mean_value,omitempty"`
	Count               int64        `json:"count"`
	XAxisLabel          *string      `json:"x_axis_label,omitempty"`
}

// toWire converts a stored task into its answer. nil lists and maps stay
// nil, so the answer is the stored document's shape.
func toWire(t *store.Task) *task {
	return &task{ID: t.ID, Company: t.Company, User: t.User, Name: t.Name, Type: t.Type, Status: t.Status,
		StatusReason: t.StatusReason, StatusMessage: t.StatusMessage, StatusChanged: t.StatusChanged,
		Comment: t.Comment, Report: t.Report, Created: t.Created, Started: t.Started, Completed: t.Completed,
		Published: t.Published, ActiveDuration: t.ActiveDuration, Parent: t.Parent, Project: t.Project,
		Output:    taskOutput{Destination: t.Output.Destination, Error: t.Output.Error, Result: t.Output.Result},
		Execution: toWireExecution(&t.Execution), Script: script(t.Script),
		Tags: t.Tags, SystemTags: t.SystemTags, LastUpdate: t.LastUpdate, LastChange: t.LastChange,
		LastChangedBy: t.LastChangedBy, LastIteration: t.LastIteration,
		LastMetrics: convertMap(t.LastMetrics, func(vs map[string]*store.MetricSummary) map[string]*metricSummary {
			return convertMap(vs, convertPtr(func(m store.MetricSummary) metricSummary { return metricSummary(m) }))
		}),
		MetricStats: t.MetricStats,
		Hyperparams: convertMap(t.Hyperparams, func(ps map[string]*store.ParamItem) map[string]*paramItem {
			return convertMap(ps, toWireParam)
		}),
		Configuration: convertMap(t.Configuration, toWireConfig),
		Runtime:       t.Runtime,
		Models: taskModels{Input: convertList(t.Models.Input, convertPtr(toWireModelItem)),
			Output: convertList(t.Models.Output, convertPtr(toWireModelItem))},
		Container: t.Container, ReportAssets: t.ReportAssets, LastWorker: t.LastWorker,
		LastWorkerReport: t.LastWorkerReport, EnqueueStatus: t.EnqueueStatus, CompanyOrigin: t.CompanyOrigin}
}

func toWireExecution(e *store.Execution) execution {
	return execution{Queue: e.Queue, Parameters: e.Parameters, ModelDesc: e.ModelDesc, ModelLabels: e.ModelLabels,
		Framework: e.Framework, Artifacts: convertList(e.Artifacts, convertPtr(wireArtifact)),
		TestSplit: e.TestSplit, DockerCmd: e.DockerCmd}
}

// The per-item conversions, shared by toWire and the answers that list
// items of a task (hyper parameters, configuration).
var (
	toWireParam  = convertPtr(func(p store.ParamItem) paramItem { return paramItem(p) })
	toWireConfig = convertPtr(func(c store.ConfigItem) configItem { return configItem(c) })
)

func toWireModelItem(m store.TaskModelItem) modelItem { return modelItem(m) }

// convertPtr lifts a value conversion to pointers (nil stays nil).
func convertPtr[S, W any](f func(S) W) func(*S) *W {
	return func(s *S) *W {
		if s == nil {
			return nil
		}
		w := f(*s)
		return &w
	}
}

// convertList converts every element (a nil list stays nil).
func convertList[S, W any](in []S, f func(S) W) []W {
	if in == nil {
		return nil
	}
	out := make([]W, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}

// convertMap converts every value (a nil map stays nil).
func convertMap[S, W any](in map[string]S, f func(S) W) map[string]W {
	if in == nil {
		return nil
	}
	out := make(map[string]W, len(in))
	for k, s := range in {
		out[k] = f(s)
	}
	return out
}
