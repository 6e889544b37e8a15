package store

import (
	"context"

	"github.com/trove-ml/trove/internal/jsonx"
)

// Task is a stored task document, in the API's shape. Optional members are
// pointers or omitempty so that "never set" reads back as absent.
type Task struct {
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
	Output           TaskOutput                           `json:"output"`
	Execution        Execution                            `json:"execution"`
	Script           Script                               `json:"script"`
	Tags             []string                             `json:"tags"`
	SystemTags       []string                             `json:"system_tags"`
	LastUpdate       jsonx.Time                           `json:"last_update"`
	LastChange       jsonx.Time                           `json:"last_change"`
	LastChangedBy    string                               `json:"last_changed_by"`
	LastIteration    int64                                `json:"last_iteration"`
	LastMetrics      map[string]map[string]*MetricSummary `json:"last_metrics"`
	MetricStats      map[string]any                       `json:"metric_stats"`
	Hyperparams      map[string]map[string]*ParamItem     `json:"hyperparams"`
	Configuration    map[string]*ConfigItem               `json:"configuration"`
	Runtime          map[string]any                       `json:"runtime"`
	Models           TaskModels                           `json:"models"`
	Container        map[string]*string                   `json:"container"`
	ReportAssets     []string                             `json:"report_assets"`
	LastWorker       string                               `json:"last_worker,omitempty"`
	LastWorkerReport *jsonx.Time                          `json:"last_worker_report,omitempty"`
	EnqueueStatus    string                               `json:"enqueue_status,omitempty"`
	CompanyOrigin    string                               `json:"company_origin,omitempty"`
	// MLflow is what a run logged through the MLflow API has beside the
	// task's own fields (mlflow.go).
	MLflow *MLflowRun `json:"mlflow,omitempty"`
}

// TaskOutput is task.output.
type TaskOutput struct {
	Destination *string `json:"destination,omitempty"`
	Error       *string `json:"error,omitempty"`
	Result      *string `json:"result,omitempty"`
}

// Execution is task.execution.
type Execution struct {
	Queue       string           `json:"queue,omitempty"`
	Parameters  map[string]any   `json:"parameters"`
	ModelDesc   map[string]any   `json:"model_desc"`
	ModelLabels map[string]int64 `json:"model_labels"`
	Framework   *string          `json:"framework,omitempty"`
	Artifacts   []*Artifact      `json:"artifacts"`
	TestSplit   int64            `json:"test_split"`
	DockerCmd   *string          `json:"docker_cmd,omitempty"`
}

// Script is task.script.
type Script struct {
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

// Artifact is one task artifact; identity is (key, mode). DisplayData is
// left out when nil (how it is stored when never sent) and written when
// set, even empty (how a single read answers it, api/tasks).
type Artifact struct {
	Key         string         `json:"key"`
	Type        string         `json:"type"`
	Mode        string         `json:"mode,omitempty"`
	URI         *string        `json:"uri,omitempty"`
	Hash        *string        `json:"hash,omitempty"`
	ContentSize *int64         `json:"content_size,omitempty"`
	Timestamp   *int64         `json:"timestamp,omitempty"`
	TypeData    map[string]any `json:"type_data,omitempty"`
	DisplayData [][]any        `json:"display_data,omitzero"`
}

// ParamItem is one hyper parameter.
type ParamItem struct {
	Section     string  `json:"section"`
	Name        string  `json:"name"`
	Value       string  `json:"value"`
	Type        *string `json:"type,omitempty"`
	Description *string `json:"description,omitempty"`
}

// ConfigItem is one configuration entry.
type ConfigItem struct {
	Name        string  `json:"name"`
	Value       string  `json:"value"`
	Type        *string `json:"type,omitempty"`
	Description *string `json:"description,omitempty"`
}

// TaskModels holds the task's input and output model references.
type TaskModels struct {
	Input  []*TaskModelItem `json:"input"`
	Output []*TaskModelItem `json:"output"`
}

// TaskModelItem is one named model reference.
type TaskModelItem struct {
	Name    string      `json:"name"`
	Model   string      `json:"model"`
	Updated *jsonx.Time `json:"updated,omitempty"`
}

// MetricSummary is the per metric/variant summary kept in last_metrics.
type MetricSummary struct {
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

// RecordID implements Record.
func (t *Task) RecordID() string { return t.ID }

// ColumnValues implements Record.
func (t *Task) ColumnValues() []any {
	return t.columnValues(paramsSig(t.Hyperparams), metricsSig(t.LastMetrics), modelsSig(t.Models.Input))
}

// columnValues is ColumnValues with the fingerprint columns given.
func (t *Task) columnValues(params, metrics, models any) []any {
	var sc any
	if t.StatusChanged != nil {
		sc = t.StatusChanged.Millis()
	}
	var started any
	if t.Started != nil {
		started = t.Started.Millis()
	}
	return []any{t.Company, t.Name, nullable(t.Project), nullable(t.Parent), t.User, t.Type, t.Status,
		t.Created.Millis(), t.LastUpdate.Millis(), sc, JSONArray(t.Tags), JSONArray(t.SystemTags), t.LastChange.Millis(), started,
		params, metrics, models}
}

// Tasks is the tasks table.
func (db *DB) Tasks() *Table[Task, *Task] {
	return &Table[Task, *Task]{DB: db, Name: "tasks",
		Cols: []string{"company", "name", "project", "parent", "user_id", "type", "status", "created", "last_update", "status_changed", "tags", "system_tags", "last_change", "started", "params_sig", "metrics_sig", "models_sig"}}
}

// Normalize fills the defaults every stored task has (empty maps and
// lists rather than null), so reads return the reference's shape.
func (t *Task) Normalize() {
	if t.Tags == nil {
		t.Tags = []string{}
	}
	if t.SystemTags == nil {
		t.SystemTags = []string{}
	}
	if t.ReportAssets == nil {
		t.ReportAssets = []string{}
	}
	if t.LastMetrics == nil {
		t.LastMetrics = map[string]map[string]*MetricSummary{}
	}
	if t.MetricStats == nil {
		t.MetricStats = map[string]any{}
	}
	if t.Hyperparams == nil {
		t.Hyperparams = map[string]map[string]*ParamItem{}
	}
	if t.Configuration == nil {
		t.Configuration = map[string]*ConfigItem{}
	}
	if t.Runtime == nil {
		t.Runtime = map[string]any{}
	}
	if t.Container == nil {
		t.Container = map[string]*string{}
	}
	if t.Models.Input == nil {
		t.Models.Input = []*TaskModelItem{}
	}
	if t.Models.Output == nil {
		t.Models.Output = []*TaskModelItem{}
	}
	e := &t.Execution
	if e.Parameters == nil {
		e.Parameters = map[string]any{}
	}
	if e.ModelDesc == nil {
		e.ModelDesc = map[string]any{}
	}
	if e.ModelLabels == nil {
		e.ModelLabels = map[string]int64{}
	}
	if e.Artifacts == nil {
		e.Artifacts = []*Artifact{}
	}
	if t.Script.Binary == "" {
		t.Script.Binary = "python"
	}
	if t.Script.Requirements == nil {
		t.Script.Requirements = map[string]any{}
	}
}

// TouchProject sets a project's last_update (column and document); task
// writes call it as the reference bumps the project of a changed task.
func (db *DB) TouchProject(ctx context.Context, q Querier, id string, at jsonx.Time) error {
	if id == "" {
		return nil
	}
	_, err := q.ExecContext(ctx, "UPDATE projects SET last_update = ?, doc = "+db.D.JSONSetText("doc")+" WHERE id = ?",
		at.Millis(), db.D.JSONPathArg([]string{"last_update"}), at.Format(), id)
	return err
}

// TaskChildren lists the tasks whose parent is the task.
func (db *DB) TaskChildren(ctx context.Context, q Querier, parent string) ([]*Task, error) {
	return db.Tasks().Select(ctx, q, "parent = ?", parent)
}

// TasksByID loads the tasks with the given ids (of any company).
func (db *DB) TasksByID(ctx context.Context, q Querier, ids []string) ([]*Task, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return db.Tasks().Select(ctx, q, "id IN ("+Placeholders(len(ids))+")", Args(ids)...)
}

// TaskIDsWithStatusBefore lists the ids of the tasks in the status whose
// last_update is older than before (epoch ms).
func (db *DB) TaskIDsWithStatusBefore(ctx context.Context, q Querier, status string, before int64) ([]string, error) {
	return IDs(ctx, q, "SELECT id FROM tasks WHERE status = ? AND last_update < ?", status, before)
}

// TaskTypes lists the distinct types of the tasks visible to companies,
// in the given projects when any are given, sorted bytewise (never nil),
// from their facets (facets.go).
func (db *DB) TaskTypes(ctx context.Context, q Querier, companies, projects []string) ([]string, error) {
	return db.FacetValues(ctx, q, FacetScope{Entity: "tasks", Companies: companies, Projects: projects}, "type")
}

// TaskIDsInProjects lists the ids of the tasks in the projects.
func (db *DB) TaskIDsInProjects(ctx context.Context, q Querier, projects []string) ([]string, error) {
	if len(projects) == 0 {
		return nil, nil
	}
	return IDs(ctx, q, "SELECT id FROM tasks WHERE project IN ("+Placeholders(len(projects))+")", Args(projects)...)
}

// DeleteTasks deletes the task rows only (what hangs off them is the
// tasks domain's to delete first) and returns how many it deleted.
func (db *DB) DeleteTasks(ctx context.Context, q Querier, ids []string) (int, error) {
	// a deleted run's latest MLflow values go with it (a reset keeps
	// them, as it keeps the run's document's)
	if err := db.DeleteLatestMetrics(ctx, q, ids); err != nil {
		return 0, err
	}
	return deleteByID(ctx, q, "tasks", ids)
}

// deleteByID deletes the rows of table with the given ids.
func deleteByID(ctx context.Context, q Querier, table string, ids []string) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	res, err := q.ExecContext(ctx, "DELETE FROM "+table+" WHERE id IN ("+Placeholders(len(ids))+")", Args(ids)...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// UpdateTaskIfStatus rewrites the task only while its stored status is
// still status (optimistic status changes) and reports whether it did.
func (db *DB) UpdateTaskIfStatus(ctx context.Context, q Querier, t *Task, status string) (bool, error) {
	return db.Tasks().UpdateIf(ctx, q, t, "status = ?", status)
}
