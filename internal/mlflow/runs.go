package mlflow

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// Run statuses.
const (
	Running   = "RUNNING"
	Scheduled = "SCHEDULED"
	Finished  = "FINISHED"
	FailedRun = "FAILED"
	Killed    = "KILLED"
)

// ParamSection is the hyper-parameter section MLflow params live in.
const ParamSection = "Args"

// Tag keys with a meaning.
const (
	TagRunName   = "mlflow.runName"
	TagParentRun = "mlflow.parentRunId"
	TagUser      = "mlflow.user"
)

// statusOf maps a task status to a run status.
func statusOf(s string) string {
	switch s {
	case tasks.InProgress:
		return Running
	case tasks.Completed, tasks.Published, tasks.Publishing, tasks.Closed:
		return Finished
	case tasks.Failed:
		return FailedRun
	case tasks.Stopped:
		return Killed
	}
	return Scheduled
}

// TaskStatuses are the task statuses a run status stands for.
func TaskStatuses(s string) []string {
	switch s {
	case Running:
		return []string{tasks.InProgress}
	case Finished:
		return []string{tasks.Completed, tasks.Published, tasks.Publishing, tasks.Closed}
	case FailedRun:
		return []string{tasks.Failed}
	case Killed:
		return []string{tasks.Stopped}
	case Scheduled:
		return []string{tasks.Created, tasks.Queued, tasks.Unknown}
	}
	return nil
}

func taskStatus(s string) (string, error) {
	switch s {
	case Running:
		return tasks.InProgress, nil
	case Finished:
		return tasks.Completed, nil
	case FailedRun:
		return tasks.Failed, nil
	case Killed:
		return tasks.Stopped, nil
	case Scheduled:
		return tasks.Created, nil
	}
	return "", apierr.MLflowInvalidParameter("Invalid value '%s' for parameter 'status': it must be one of RUNNING, SCHEDULED, FINISHED, FAILED, KILLED", s)
}

// Metric is one metric point; Value is its exact text.
type Metric struct {
	Key       string
	Value     string
	Timestamp int64
	Step      int64
	// the logged model and dataset the point names, if any
	store.MetricLinks
}

// KV is a param or tag.
type KV struct{ Key, Value string }

// Run is a run as MLflow answers it.
type Run struct {
	ID, Name, ExperimentID, UserID, Status, ArtifactURI, LifecycleStage string
	StartTime                                                           int64
	EndTime                                                             *int64
	Metrics                                                             []Metric
	Params                                                              []KV
	Tags                                                                []KV
	Inputs                                                              []*store.MLflowDatasetInput
	ModelInputs                                                         []string
	ModelOutputs                                                        []*store.MLflowModelOutput
}

// FormatValue is the stored text of a metric value.
func FormatValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// ParseValue reads a stored or sent metric value.
func ParseValue(s string) (float64, bool) {
	switch s {
	case "NaN", "nan":
		return math.NaN(), true
	case "Infinity", "inf", "+Infinity", "+Inf", "Inf":
		return math.Inf(1), true
	case "-Infinity", "-inf", "-Inf":
		return math.Inf(-1), true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

func parseFloat(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, filterErr("Invalid numeric value '%s'", s)
	}
	return f, nil
}

// RunOf converts a task.
func RunOf(t *store.Task, expID string) *Run {
	r := &Run{ID: t.ID, Name: t.Name, ExperimentID: expID, UserID: t.User, Status: statusOf(t.Status), LifecycleStage: Active}
	if t.MLflow != nil && t.MLflow.UserID != "" {
		r.UserID = t.MLflow.UserID
	}
	if domain.HasTag(t.SystemTags, tagArchived) {
		r.LifecycleStage = Deleted
	}
	if t.Started != nil {
		r.StartTime = t.Started.Millis()
	} else {
		r.StartTime = t.Created.Millis()
	}
	if t.Completed != nil && r.Status != Running && r.Status != Scheduled {
		ms := t.Completed.Millis()
		r.EndTime = &ms
	}
	tags := map[string]string{}
	m := t.MLflow
	if m != nil {
		if m.StartTime != nil {
			r.StartTime = *m.StartTime
		}
		if m.EndTime != nil {
			r.EndTime = m.EndTime
		}
		r.ArtifactURI = m.ArtifactURI
		for k, v := range m.Tags {
			tags[k] = v
		}
		for k, lm := range m.Metrics {
			r.Metrics = append(r.Metrics, Metric{Key: k, Value: lm.Value, Timestamp: lm.Timestamp, Step: lm.Step})
		}
		r.Inputs, r.ModelInputs, r.ModelOutputs = m.Inputs, m.ModelInputs, m.ModelOutputs
	}
	if m == nil || len(m.Metrics) == 0 {
		// A ClearML task (perhaps tagged or given files through the
		// MLflow API since): its last scalar values.
		for _, variants := range t.LastMetrics {
			for _, s := range variants {
				if s == nil {
					continue
				}
				key := s.Metric
				if s.Variant != s.Metric {
					key += "/" + s.Variant
				}
				r.Metrics = append(r.Metrics, Metric{Key: key, Value: FormatValue(float64(s.Value)), Timestamp: t.LastUpdate.Millis(), Step: t.LastIteration})
			}
		}
	}
	if r.ArtifactURI == "" {
		r.ArtifactURI = "mlflow-artifacts:/" + expID + "/" + t.ID + "/artifacts"
	}
	if _, ok := tags[TagRunName]; !ok && t.Name != "" {
		tags[TagRunName] = t.Name
	}
	if _, ok := tags[TagParentRun]; !ok && t.Parent != "" {
		tags[TagParentRun] = t.Parent
	}
	for k, v := range tags {
		r.Tags = append(r.Tags, KV{k, v})
	}
	for section, items := range t.Hyperparams {
		for name, it := range items {
			if it == nil {
				continue
			}
			key := name
			if section != ParamSection {
				key = section + "/" + name
			}
			r.Params = append(r.Params, KV{key, it.Value})
		}
	}
	sort.Slice(r.Metrics, func(i, j int) bool { return r.Metrics[i].Key < r.Metrics[j].Key })
	sort.Slice(r.Params, func(i, j int) bool { return r.Params[i].Key < r.Params[j].Key })
	sort.Slice(r.Tags, func(i, j int) bool { return r.Tags[i].Key < r.Tags[j].Key })
	return r
}

// expIDOf is the experiment id of a task's project.
func expIDOf(ctx context.Context, env *domain.Env, q store.Querier, t *store.Task) (string, error) {
	if t.Project == "" {
		return DefaultID, nil
	}
	p, err := env.DB.Projects().Get(ctx, q, t.Project, domain.Visible(t.Company)...)
	if errors.Is(err, store.ErrNotFound) {
		return t.Project, nil
	}
	if err != nil {
		return "", err
	}
	return ExperimentID(p), nil
}

// RunCreate is a create-run request.
type RunCreate struct {
	Company, User, ExperimentID, RunName, UserID string
	StartTime                                    *int64
	Tags                                         map[string]string
}

// CreateRun creates a run (a running task) and returns it.
func CreateRun(ctx context.Context, env *domain.Env, in RunCreate) (*Run, error) {
	for k, v := range in.Tags {
		if err := CheckTag(k, v); err != nil {
			return nil, err
		}
	}
	if in.ExperimentID == "" {
		in.ExperimentID = DefaultID
	}
	var run *Run
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		p, err := loadProject(ctx, env, q, in.Company, in.User, in.ExperimentID, true, false)
		if err != nil {
			return err
		}
		if domain.HasTag(p.SystemTags, tagArchived) {
			return apierr.MLflowInvalidParameter("The experiment %s must be in the 'active' state. Current state is deleted.", in.ExperimentID)
		}
		now := env.Time()
		name := in.RunName
		if name == "" {
			name = in.Tags[TagRunName]
		}
		if name == "" {
			name = "run-" + ids.New()[:8]
		}
		start := now.Millis()
		if in.StartTime != nil {
			start = *in.StartTime
		}
		started := jsonx.FromMillis(start)
		t := &store.Task{ID: ids.New(), Company: in.Company, User: in.User, Name: name, Type: "training",
			Status: tasks.InProgress, Created: now, LastUpdate: now, LastChange: now, LastChangedBy: in.User,
			Started: &started, StatusChanged: &now, Project: p.ID}
		t.Normalize()
		tags := putTag(copyTags(in.Tags), TagRunName, name, false)
		if parent := tags[TagParentRun]; parent != "" {
			if _, err := env.DB.Tasks().Get(ctx, q, parent, in.Company); err == nil {
				t.Parent = parent
			}
		}
		expID := ExperimentID(p)
		user := in.UserID
		if user == "" {
			user = "unknown"
		}
		t.MLflow = &store.MLflowRun{Tags: tags, StartTime: &start, UserID: user,
			ArtifactURI: "mlflow-artifacts:/" + expID + "/" + t.ID + "/artifacts"}
		if err := tasks.Insert(ctx, env, q, in.Company, t, tasks.RefChecks{}); err != nil {
			return err
		}
		run = RunOf(t, expID)
		return nil
	})
	return run, err
}

// loadTask reads run id of company.
func loadTask(ctx context.Context, env *domain.Env, q store.Querier, company, id string, lock bool) (*store.Task, error) {
	if id == "" {
		return nil, apierr.MLflowInvalidParameter("Missing value for required parameter 'run_id'.")
	}
	get := env.DB.Tasks().Get
	if lock {
		get = env.DB.Tasks().GetForUpdate
	}
	t, err := get(ctx, q, id, company)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.MLflowNotFound("Run '%s' not found", id)
	}
	if err != nil {
		return nil, err
	}
	t.Normalize()
	return t, nil
}

// GetRun reads run id.
func GetRun(ctx context.Context, env *domain.Env, company, id string) (*Run, error) {
	q := env.DB.Read()
	t, err := loadTask(ctx, env, q, company, id, false)
	if err != nil {
		return nil, err
	}
	exp, err := expIDOf(ctx, env, q, t)
	if err != nil {
		return nil, err
	}
	return RunOf(t, exp), nil
}

// editRun changes run id in a transaction; active runs only unless
// anyStage.
func editRun(ctx context.Context, env *domain.Env, company, user, id string, anyStage bool, edit func(q store.Querier, t *store.Task) error) (*store.Task, error) {
	var out *store.Task
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		t, err := loadTask(ctx, env, q, company, id, true)
		if err != nil {
			return err
		}
		if !anyStage && domain.HasTag(t.SystemTags, tagArchived) {
			return apierr.MLflowInvalidParameter("The run %s must be in the 'active' state. Current state is deleted.", id)
		}
		if t.MLflow == nil {
			t.MLflow = &store.MLflowRun{}
		}
		if err := edit(q, t); err != nil {
			return err
		}
		now := env.Time()
		t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, user
		out = t
		return env.DB.Tasks().Update(ctx, q, t)
	})
	return out, err
}

// RunUpdate is an update-run request.
type RunUpdate struct {
	Company, User, RunID string
	Status, RunName      *string
	EndTime              *int64
}

// UpdateRun changes a run's status, end time or name.
func UpdateRun(ctx context.Context, env *domain.Env, in RunUpdate) (*Run, error) {
	var status string
	if in.Status != nil {
		s, err := taskStatus(*in.Status)
		if err != nil {
			return nil, err
		}
		status = s
	}
	t, err := editRun(ctx, env, in.Company, in.User, in.RunID, false, func(_ store.Querier, t *store.Task) error {
		now := env.Time()
		if status != "" && status != t.Status {
			t.Status, t.StatusChanged = status, &now
		}
		if in.EndTime != nil {
			t.MLflow.EndTime = in.EndTime
			end := jsonx.FromMillis(*in.EndTime)
			t.Completed = &end
		} else if status != "" && status != tasks.InProgress && status != tasks.Created && t.MLflow.EndTime == nil {
			ms := now.Millis()
			t.MLflow.EndTime, t.Completed = &ms, &now
		}
		if in.RunName != nil && *in.RunName != "" {
			t.Name = *in.RunName
			t.MLflow.Tags = putTag(t.MLflow.Tags, TagRunName, *in.RunName, false)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	exp, err := expIDOf(ctx, env, env.DB.Read(), t)
	if err != nil {
		return nil, err
	}
	return RunOf(t, exp), nil
}

// SetRunLifecycle deletes (archives) or restores a run.
func SetRunLifecycle(ctx context.Context, env *domain.Env, company, user, id string, deleted bool) error {
	_, err := editRun(ctx, env, company, user, id, true, func(_ store.Querier, t *store.Task) error {
		t.SystemTags = domain.WithoutTag(t.SystemTags, tagArchived)
		if deleted {
			t.SystemTags = domain.SortedTags(append(t.SystemTags, tagArchived))
		}
		return nil
	})
	return err
}

// Batch is a log-batch (or a single log call).
type Batch struct {
	Company, User, RunID string
	Metrics              []Metric
	Params               []KV
	Tags                 []KV
}

// CheckBatch applies MLflow's batch limits and key rules.
func CheckBatch(b *Batch) error {
	if len(b.Metrics) > MaxBatchMetrics {
		return apierr.MLflowInvalidParameter("A batch logging request can contain at most %d metrics. Got %d metrics. Please split up metrics across multiple requests and try again.", MaxBatchMetrics, len(b.Metrics))
	}
	if len(b.Params) > MaxBatchParams {
		return apierr.MLflowInvalidParameter("A batch logging request can contain at most %d params. Got %d params. Please split up params across multiple requests and try again.", MaxBatchParams, len(b.Params))
	}
	if len(b.Tags) > MaxBatchTags {
		return apierr.MLflowInvalidParameter("A batch logging request can contain at most %d tags. Got %d tags. Please split up tags across multiple requests and try again.", MaxBatchTags, len(b.Tags))
	}
	if n := len(b.Metrics) + len(b.Params) + len(b.Tags); n > MaxBatchTotal {
		return apierr.MLflowInvalidParameter("A batch logging request can contain at most %d metrics, params, and tags in total. Got %d total.", MaxBatchTotal, n)
	}
	for _, m := range b.Metrics {
		if err := checkKey("metric", m.Key, MaxMetricKeyLen); err != nil {
			return err
		}
		if err := checkLinks(m.MetricLinks); err != nil {
			return err
		}
		if _, ok := ParseValue(m.Value); !ok {
			return apierr.MLflowInvalidParameter("Got invalid value %s for metric '%s' (timestamp=%d). Please specify value as a valid double (64-bit floating point)", m.Value, m.Key, m.Timestamp)
		}
	}
	seen := map[string]string{}
	for _, p := range b.Params {
		if err := checkKey("param", p.Key, MaxParamKeyLen); err != nil {
			return err
		}
		if len(p.Value) > MaxParamValLen {
			return apierr.MLflowInvalidParameter("Param value '%s' had length %d, which exceeded length limit of %d", p.Value[:50]+"...", len(p.Value), MaxParamValLen)
		}
		if v, dup := seen[p.Key]; dup && v != p.Value {
			return apierr.MLflowInvalidParameter("Duplicate parameter keys have been submitted: ['%s']. Please ensure the request contains only one param value per param key.", p.Key)
		}
		seen[p.Key] = p.Value
	}
	for _, t := range b.Tags {
		if err := CheckTag(t.Key, t.Value); err != nil {
			return err
		}
	}
	return nil
}

// DeleteTag removes a tag of a run.
func DeleteTag(ctx context.Context, env *domain.Env, company, user, id, key string) error {
	_, err := editRun(ctx, env, company, user, id, false, func(_ store.Querier, t *store.Task) error {
		if _, ok := t.MLflow.Tags[key]; !ok {
			return apierr.MLflowNotFound("No tag with name: %s in run with id %s", key, id)
		}
		t.MLflow.Tags = putTag(t.MLflow.Tags, key, "", true)
		return nil
	})
	return err
}

// LogInputs adds dataset inputs and logged model inputs to a run (a
// dataset already logged with the same name, digest and context is kept
// once, a model once); the models must be logged models of the company.
func LogInputs(ctx context.Context, env *domain.Env, company, user, id string, inputs []*store.MLflowDatasetInput, models []string) error {
	for _, in := range inputs {
		if in.Name == "" || in.Digest == "" || in.SourceType == "" || in.Source == "" {
			return apierr.MLflowInvalidParameter("A dataset needs a name, digest, source_type and source")
		}
	}
	_, err := editRun(ctx, env, company, user, id, false, func(q store.Querier, t *store.Task) error {
		if err := checkModels(ctx, env, q, company, models); err != nil {
			return err
		}
	next:
		for _, in := range inputs {
			for _, have := range t.MLflow.Inputs {
				if have.Name == in.Name && have.Digest == in.Digest && have.Tags[TagDatasetContext] == in.Tags[TagDatasetContext] {
					continue next
				}
			}
			t.MLflow.Inputs = append(t.MLflow.Inputs, in)
		}
		for _, m := range models {
			if !slices.Contains(t.MLflow.ModelInputs, m) {
				t.MLflow.ModelInputs = append(t.MLflow.ModelInputs, m)
			}
		}
		return nil
	})
	return err
}

// MetricHistory reads one metric's points of a run, from offset, at
// most limit of them. A key the run logged through MLflow is read from
// its MLflow history (history.go); any other (a task reported with the
// ClearML SDK) from the task's scalar series (see scalarHistory).
func MetricHistory(ctx context.Context, env *domain.Env, company, id, key string, offset, limit int) ([]Metric, error) {
	t, err := loadTask(ctx, env, env.DB.Read(), company, id, false)
	if err != nil {
		return nil, err
	}
	if t.MLflow == nil || t.MLflow.Metrics[key] == nil {
		return scalarHistory(ctx, env, t.ID, key, offset, limit)
	}
	if t.MLflow.ScalarHistory {
		return keptHistory(ctx, env, t.ID, key, offset, limit)
	}
	pts, err := env.DB.MetricHistory(ctx, id, key, offset, limit)
	if err != nil {
		return nil, err
	}
	return historyMetrics(pts), nil
}

// RunSearch is a search-runs request.
type RunSearch struct {
	Company       string
	ExperimentIDs []string
	Filter        string
	OrderBy       []string
	MaxResults    int
	PageToken     string
	ViewType      int
}

func strCond(column []string, path []string, c Clause) query.Cond {
	vals := make([]any, len(c.Str))
	for i, s := range c.Str {
		vals[i] = s
	}
	qc := query.Cond{Path: path, Op: c.Op, Values: vals}
	if len(column) > 0 {
		qc.Column, qc.Path = column[0], nil
	}
	return qc
}

// datasetElem is where a dataset filter key is in a stored input.
var datasetElem = map[string][]string{"name": {"name"}, "digest": {"digest"}, "context": {"tags", TagDatasetContext}}

// runConds are the query conditions of one filter clause.
func runConds(c Clause) (query.Cond, error) {
	switch c.Kind {
	case KindMetric:
		return query.Cond{Expr: latestMetric(c.Key), Op: c.Op, Values: []any{c.Num}, Numeric: true}, nil
	case KindParam:
		return strCond(nil, []string{"hyperparams", ParamSection, c.Key, "value"}, c), nil
	case KindTag:
		return strCond(nil, []string{"mlflow", "tags", c.Key}, c), nil
	case KindDataset:
		// some dataset input of the run compares
		qc := strCond(nil, []string{"mlflow", "inputs"}, c)
		qc.Elem = datasetElem[c.Key]
		return qc, nil
	}
	switch c.Key {
	case "run_id":
		return strCond([]string{"id"}, nil, c), nil
	case "run_name":
		return strCond([]string{"name"}, nil, c), nil
	case "user_id":
		return strCond([]string{"user"}, nil, c), nil
	case "artifact_uri":
		return strCond(nil, []string{"mlflow", "artifact_uri"}, c), nil
	case "start_time", "created":
		return query.Cond{Column: "started", Op: c.Op, Values: []any{int64(c.Num)}}, nil
	case "end_time":
		return query.Cond{Path: []string{"mlflow", "end_time"}, Op: c.Op, Values: []any{c.Num}, Numeric: true}, nil
	case "status":
		var vals []any
		for _, s := range c.Str {
			for _, ts := range TaskStatuses(strings.ToUpper(s)) {
				vals = append(vals, ts)
			}
		}
		switch c.Op {
		case "=", "IN":
			if len(vals) == 0 {
				vals = []any{"-"}
			}
			return query.Cond{Column: "status", Op: query.OpIn, Values: vals}, nil
		case "!=", "NOT IN":
			if len(vals) == 0 {
				vals = []any{"-"}
			}
			return query.Cond{Column: "status", Op: query.OpNotIn, Values: vals}, nil
		}
		return query.Cond{}, filterErr("Invalid comparator '%s' for attribute 'status'", c.Op)
	case "lifecycle_stage":
		if c.Op != "=" && c.Op != "!=" {
			return query.Cond{}, filterErr("Invalid comparator '%s' for attribute 'lifecycle_stage'", c.Op)
		}
		op := query.OpHas
		if (c.Str[0] == Deleted) != (c.Op == "=") {
			op = query.OpHasNot
		}
		return query.Cond{Column: "system_tags", Op: op, Values: []any{tagArchived}}, nil
	}
	return query.Cond{}, filterErr("Invalid attribute key '%s'", c.Key)
}

// readsLatest reports a search that compares or orders by metrics (the
// table of latest values).
func readsLatest(clauses []Clause, keys []OrderKey) bool {
	for _, c := range clauses {
		if c.Kind == KindMetric {
			return true
		}
	}
	for _, k := range keys {
		if k.Kind == KindMetric {
			return true
		}
	}
	return false
}

// latestMetric is a run's latest finite value of a metric key, from the
// table kept beside the runs' documents (indexed; the document holds the
// same value).
func latestMetric(key string) *query.Expr {
	return &query.Expr{SQL: store.MLflowLatestMetric, Args: []any{key}}
}

func runOrder(keys []OrderKey) []query.OrderKey {
	var out []query.OrderKey
	for _, k := range keys {
		switch k.Kind {
		case KindMetric:
			e := latestMetric(k.Key)
			if len(out) == 0 {
				// the page walks the metric's index in order
				e.Driver = store.MLflowLatestDriver(k.Key)
			}
			out = append(out, query.OrderKey{Expr: e, Numeric: true, Desc: k.Desc})
		case KindParam:
			out = append(out, query.OrderKey{Path: []string{"hyperparams", ParamSection, k.Key, "value"}, Desc: k.Desc})
		case KindTag:
			out = append(out, query.OrderKey{Path: []string{"mlflow", "tags", k.Key}, Desc: k.Desc})
		default:
			switch k.Key {
			case "start_time", "created":
				out = append(out, query.OrderKey{Column: "started", Desc: k.Desc})
			case "end_time":
				out = append(out, query.OrderKey{Path: []string{"mlflow", "end_time"}, Numeric: true, Desc: k.Desc})
			case "run_name":
				out = append(out, query.OrderKey{Column: "name", Desc: k.Desc})
			case "run_id":
				out = append(out, query.OrderKey{Column: "id", Desc: k.Desc})
			case "status":
				out = append(out, query.OrderKey{Column: "status", Desc: k.Desc})
			case "user_id":
				out = append(out, query.OrderKey{Column: "user", Desc: k.Desc})
			default:
				out = append(out, query.OrderKey{Path: []string{"mlflow", k.Key}, Desc: k.Desc})
			}
		}
	}
	return append(out, query.OrderKey{Column: "started", Desc: true}, query.OrderKey{Column: "id"})
}

// SearchRuns lists runs of experiments and the next page's token.
func SearchRuns(ctx context.Context, env *domain.Env, s RunSearch) ([]*Run, string, error) {
	if s.MaxResults <= 0 {
		s.MaxResults = 1000
	}
	if s.MaxResults > MaxRunResults {
		return nil, "", apierr.MLflowInvalidParameter("Invalid value %d for parameter 'max_results' supplied. It must be at most %d", s.MaxResults, MaxRunResults)
	}
	offset, err := ParsePageToken(s.PageToken)
	if err != nil {
		return nil, "", err
	}
	clauses, err := ParseFilter(s.Filter)
	if err != nil {
		return nil, "", err
	}
	keys, err := ParseOrderBy(s.OrderBy)
	if err != nil {
		return nil, "", err
	}
	if readsLatest(clauses, keys) {
		// the latest-value rows, as of every write before this search
		if err := env.DB.SyncAllLatestMetrics(ctx, SyncLatestRuns); err != nil {
			return nil, "", err
		}
	}
	q := env.DB.Read()
	projectIDs := map[string]string{} // project id -> experiment id
	var pids []any
	for _, e := range s.ExperimentIDs {
		p, err := loadProject(ctx, env, q, s.Company, "", e, false, false)
		if err != nil {
			var ae *apierr.Error
			if errors.As(err, &ae) && ae.Code == 404 {
				continue
			}
			return nil, "", err
		}
		if p != nil {
			projectIDs[p.ID] = e
			pids = append(pids, p.ID)
		}
	}
	if len(pids) == 0 {
		return []*Run{}, "", nil
	}
	plan := query.NewPlan(env.DB.D, tasks.Schema, s.MaxResults+1, offset)
	conds := []query.Cond{{Column: "company", Op: query.OpEq, Values: []any{s.Company}},
		{Column: "project", Op: query.OpIn, Values: pids}}
	switch s.ViewType {
	case ViewActive:
		conds = append(conds, query.Cond{Column: "system_tags", Op: query.OpHasNot, Values: []any{tagArchived}})
	case ViewDeleted:
		conds = append(conds, query.Cond{Column: "system_tags", Op: query.OpHas, Values: []any{tagArchived}})
	}
	for _, c := range clauses {
		qc, err := runConds(c)
		if err != nil {
			return nil, "", err
		}
		conds = append(conds, qc)
	}
	for _, c := range conds {
		if err := plan.WhereCond(c); err != nil {
			return nil, "", err
		}
	}
	if err := plan.OrderBy(runOrder(keys)); err != nil {
		return nil, "", err
	}
	var out []*Run
	err = plan.DocsLate(ctx, env.DB, "tasks", func(doc []byte) error {
		var t store.Task
		if err := json.Unmarshal(doc, &t); err != nil {
			return err
		}
		t.Normalize()
		out = append(out, RunOf(&t, projectIDs[t.Project]))
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(out) > s.MaxResults {
		out = out[:s.MaxResults]
		next = PageToken(offset + s.MaxResults)
	}
	if out == nil {
		out = []*Run{}
	}
	return out, next, nil
}

// SampleSteps picks at most n+1 of steps (sorted, distinct): n spread
// evenly by position, and the last one; all of them when there are no
// more than n.
func SampleSteps(steps []int64, n int) map[int64]bool {
	keep := make(map[int64]bool, min(len(steps), n+1))
	if len(steps) <= n || n < 1 {
		for _, s := range steps {
			keep[s] = true
		}
		return keep
	}
	for i := 0; i < n; i++ {
		keep[steps[i*len(steps)/n]] = true
	}
	keep[steps[len(steps)-1]] = true
	return keep
}
