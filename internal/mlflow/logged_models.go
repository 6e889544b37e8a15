package mlflow

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// MLflow 3's logged models (issue 38) are Trove models: a row of the
// models table in the experiment's project, its task the source run, its
// uri the model's artifact location, ready once finalized, so the model
// shows in Trove's UI and through the ClearML API.

// Logged model statuses.
const (
	LoggedModelPending = "LOGGED_MODEL_PENDING"
	LoggedModelReady   = "LOGGED_MODEL_READY"
	LoggedModelFailed  = "LOGGED_MODEL_UPLOAD_FAILED"
)

// LoggedModel is a logged model as MLflow answers it.
type LoggedModel struct {
	ID, Name, ExperimentID, ArtifactURI, Status, StatusMessage, User, ModelType, SourceRunID string
	Created, LastUpdate                                                                      int64
	Tags, Params                                                                             map[string]string
	// Metrics are the points logged with the model's id.
	Metrics []ModelMetric
}

// LoggedModelOf converts a model.
func LoggedModelOf(m *store.Model) *LoggedModel {
	out := &LoggedModel{ID: m.ID, Name: m.Name, User: m.User, Created: m.Created.Millis(), LastUpdate: m.LastUpdate.Millis(),
		ArtifactURI: m.URI, SourceRunID: m.Task, Status: LoggedModelPending}
	if m.Ready {
		out.Status = LoggedModelReady
	}
	if x := m.MLflow; x != nil {
		out.ExperimentID, out.Status, out.StatusMessage, out.ModelType = x.ExperimentID, x.Status, x.StatusMessage, x.ModelType
		out.Tags, out.Params = x.Tags, x.Params
		if x.ArtifactLocation != "" {
			out.ArtifactURI = x.ArtifactLocation
		}
		if x.SourceRunID != "" {
			out.SourceRunID = x.SourceRunID
		}
	}
	return out
}

// LoggedModelCreate is a create-logged-model request.
type LoggedModelCreate struct {
	Company, User, ExperimentID, Name, ModelType, SourceRunID string
	Tags, Params                                              map[string]string
}

// CreateLoggedModel makes a pending logged model in an experiment.
func CreateLoggedModel(ctx context.Context, env *domain.Env, in LoggedModelCreate) (*LoggedModel, error) {
	if in.ExperimentID == "" {
		return nil, missingParam("experiment_id")
	}
	for k, v := range in.Tags {
		if err := CheckTag(k, v); err != nil {
			return nil, err
		}
	}
	for k, v := range in.Params {
		if err := checkKey("param", k, MaxParamKeyLen); err != nil {
			return nil, err
		}
		if len(v) > MaxParamValLen {
			return nil, apierr.MLflowInvalidParameter("Param value '%s' had length %d, which exceeded length limit of %d", v[:50]+"...", len(v), MaxParamValLen)
		}
	}
	if len(in.Name) > MaxNameLen {
		return nil, apierr.MLflowInvalidParameter("Model name had length %d, which exceeded length limit of %d", len(in.Name), MaxNameLen)
	}
	var out *store.Model
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		p, err := loadProject(ctx, env, q, in.Company, in.User, in.ExperimentID, true, false)
		if err != nil {
			return err
		}
		if domain.HasTag(p.SystemTags, tagArchived) {
			return apierr.MLflowInvalidParameter("The experiment %s must be in the 'active' state. Current state is deleted.", in.ExperimentID)
		}
		// MLflow keeps any source_run_id; the model's task is set only
		// when it names a run of the company
		task := ""
		if in.SourceRunID != "" {
			if _, err := env.DB.Tasks().Get(ctx, q, in.SourceRunID, in.Company); err == nil {
				task = in.SourceRunID
			} else if !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		id := store.LoggedModelPrefix + ids.New()
		name := in.Name
		if name == "" {
			name = "model-" + id[2:10]
		}
		exp := ExperimentOf(p)
		loc := strings.TrimSuffix(exp.ArtifactLocation, "/") + "/models/" + id + "/artifacts"
		now := env.Time()
		m := &store.Model{ID: id, Company: in.Company, User: in.User, Name: name, Created: now, LastUpdate: now,
			LastChange: now, LastChangedBy: in.User, Project: p.ID, Task: task, URI: loc,
			MLflow: &store.MLflowLoggedModel{ExperimentID: exp.ID, ArtifactLocation: loc, Status: LoggedModelPending,
				ModelType: in.ModelType, SourceRunID: in.SourceRunID, Tags: copyTags(in.Tags), Params: copyTags(in.Params)}}
		if in.ModelType != "" {
			fw := in.ModelType
			m.Framework = &fw
		}
		m.Normalize()
		out = m
		return env.DB.Models().Insert(ctx, q, m)
	})
	if err != nil {
		return nil, err
	}
	return LoggedModelOf(out), nil
}

func missingParam(name string) error {
	return apierr.MLflowInvalidParameter("Missing value for required parameter '%s'. See the API docs for more information about request parameters.", name)
}

func loggedModelNotFound(id string) error {
	return apierr.MLflowNotFound("Logged model with ID '%s' not found.", id)
}

// loadLoggedModel reads logged model id of company.
func loadLoggedModel(ctx context.Context, env *domain.Env, q store.Querier, company, id string, lock bool) (*store.Model, error) {
	if id == "" {
		return nil, missingParam("model_id")
	}
	get := env.DB.Models().Get
	if lock {
		get = env.DB.Models().GetForUpdate
	}
	m, err := get(ctx, q, id, company)
	if errors.Is(err, store.ErrNotFound) || (err == nil && m.MLflow == nil) {
		return nil, loggedModelNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	m.Normalize()
	return m, nil
}

// GetLoggedModel reads one logged model.
func GetLoggedModel(ctx context.Context, env *domain.Env, company, id string) (*LoggedModel, error) {
	m, err := loadLoggedModel(ctx, env, env.DB.Read(), company, id, false)
	if err != nil {
		return nil, err
	}
	out := LoggedModelOf(m)
	return out, fillMetrics(ctx, env, company, []*LoggedModel{out})
}

// editLoggedModel changes a logged model in a transaction.
func editLoggedModel(ctx context.Context, env *domain.Env, company, user, id string, edit func(m *store.Model) error) (*LoggedModel, error) {
	var out *store.Model
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		m, err := loadLoggedModel(ctx, env, q, company, id, true)
		if err != nil {
			return err
		}
		if err := edit(m); err != nil {
			return err
		}
		now := env.Time()
		m.LastUpdate, m.LastChange, m.LastChangedBy = now, now, user
		out = m
		return env.DB.Models().Update(ctx, q, m)
	})
	if err != nil {
		return nil, err
	}
	return LoggedModelOf(out), nil
}

// FinalizeLoggedModel sets a logged model's final status (ready or
// upload failed).
func FinalizeLoggedModel(ctx context.Context, env *domain.Env, company, user, id, status string) (*LoggedModel, error) {
	switch status {
	case LoggedModelReady, LoggedModelFailed:
	default:
		return nil, apierr.MLflowInvalidParameter("Invalid value '%s' for parameter 'status': it must be %s or %s", status, LoggedModelReady, LoggedModelFailed)
	}
	return editLoggedModel(ctx, env, company, user, id, func(m *store.Model) error {
		m.MLflow.Status = status
		m.Ready = status == LoggedModelReady
		return nil
	})
}

// SetLoggedModelTags sets tags; DeleteLoggedModelTag removes one.
func SetLoggedModelTags(ctx context.Context, env *domain.Env, company, user, id string, tags map[string]string) (*LoggedModel, error) {
	for k, v := range tags {
		if err := CheckTag(k, v); err != nil {
			return nil, err
		}
	}
	return editLoggedModel(ctx, env, company, user, id, func(m *store.Model) error {
		if m.MLflow.Tags == nil {
			m.MLflow.Tags = map[string]string{}
		}
		for k, v := range tags {
			m.MLflow.Tags[k] = v
		}
		return nil
	})
}

// DeleteLoggedModelTag removes a logged model's tag.
func DeleteLoggedModelTag(ctx context.Context, env *domain.Env, company, user, id, key string) error {
	_, err := editLoggedModel(ctx, env, company, user, id, func(m *store.Model) error {
		if _, ok := m.MLflow.Tags[key]; !ok {
			return apierr.MLflowNotFound("No tag with key '%s' found for model with ID '%s'.", key, id)
		}
		delete(m.MLflow.Tags, key)
		return nil
	})
	return err
}

// LogLoggedModelParams adds params to a logged model.
func LogLoggedModelParams(ctx context.Context, env *domain.Env, company, user, id string, params map[string]string) error {
	for k, v := range params {
		if err := checkKey("param", k, MaxParamKeyLen); err != nil {
			return err
		}
		if len(v) > MaxParamValLen {
			return apierr.MLflowInvalidParameter("Param value '%s' had length %d, which exceeded length limit of %d", v[:50]+"...", len(v), MaxParamValLen)
		}
	}
	_, err := editLoggedModel(ctx, env, company, user, id, func(m *store.Model) error {
		if m.MLflow.Params == nil {
			m.MLflow.Params = map[string]string{}
		}
		for k, v := range params {
			m.MLflow.Params[k] = v
		}
		return nil
	})
	return err
}

// DeleteLoggedModel removes a logged model (its files stay: MLflow's
// server keeps them too until garbage collection).
func DeleteLoggedModel(ctx context.Context, env *domain.Env, company, id string) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := loadLoggedModel(ctx, env, q, company, id, true); err != nil {
			return err
		}
		_, err := env.DB.Models().Delete(ctx, q, id)
		return err
	})
}

// LoggedModelSearch is a search of logged models.
type LoggedModelSearch struct {
	Company       string
	ExperimentIDs []string
	Filter        string
	OrderBy       []LoggedModelOrder
	MaxResults    int
	PageToken     string
	// Datasets keeps the models with metrics on one of them; metric
	// filters then look at those points only.
	Datasets []DatasetRef
}

// LoggedModelOrder is one order term (field_name, ascending); a
// metrics.<key> term may name the dataset its values come from.
type LoggedModelOrder struct {
	Field     string
	Ascending bool
	Dataset   *DatasetRef
}

var loggedModelAttrs = entityAttrs{withMetrics: true, "name": false, "model_id": false, "model_type": false, "status": false,
	"source_run_id": false, "creation_timestamp": true, "creation_time": true, "last_updated_timestamp": true}

// SearchLoggedModels lists the logged models of experiments.
func SearchLoggedModels(ctx context.Context, env *domain.Env, s LoggedModelSearch) ([]*LoggedModel, string, error) {
	var err error
	if s.MaxResults, err = pageSize(s.MaxResults, DefLoggedModelResults, MaxLoggedModelResults, registryWording); err != nil {
		return nil, "", err
	}
	if len(s.ExperimentIDs) == 0 {
		return nil, "", apierr.MLflowInvalidParameter("Missing value for required parameter 'experiment_ids'.")
	}
	clauses, err := parseEntityFilter(s.Filter, loggedModelAttrs)
	if err != nil {
		return nil, "", err
	}
	q := env.DB.Read()
	found, err := experimentProjects(ctx, env, q, s.Company, s.ExperimentIDs)
	if err != nil {
		return nil, "", err
	}
	var pids []string
	for _, p := range found {
		pids = append(pids, p.ID)
	}
	if len(pids) == 0 {
		return nil, "", nil
	}
	models, err := env.DB.LoggedModels(ctx, s.Company, pids)
	if err != nil {
		return nil, "", err
	}
	for _, o := range s.OrderBy {
		switch o.Field {
		case "name", "model_id", "creation_timestamp", "creation_time", "last_updated_timestamp":
		default:
			if len(o.Field) <= len("metrics.") || !strings.HasPrefix(o.Field, "metrics.") {
				return nil, "", apierr.MLflowInvalidParameter("Invalid order by field name: %s", o.Field)
			}
		}
	}
	var all []*LoggedModel
	for _, m := range models {
		if m.MLflow != nil {
			all = append(all, LoggedModelOf(m))
		}
	}
	// the metrics of every model are read only when the search looks at
	// them; otherwise those of the page's models
	needMetrics := len(s.Datasets) > 0
	for _, c := range clauses {
		needMetrics = needMetrics || c.Kind == KindMetric
	}
	for _, o := range s.OrderBy {
		needMetrics = needMetrics || strings.HasPrefix(o.Field, "metrics.")
	}
	if needMetrics {
		if err := fillMetrics(ctx, env, s.Company, all); err != nil {
			return nil, "", err
		}
	}
	var hits []*LoggedModel
	for _, lm := range all {
		ok := len(s.Datasets) == 0 || hasDatasetMetric(lm.Metrics, s.Datasets)
		for _, c := range clauses {
			switch c.Key {
			case "name":
				ok = ok && matchString(c, lm.Name, true)
			case "model_id":
				ok = ok && matchString(c, lm.ID, true)
			case "model_type":
				ok = ok && matchString(c, lm.ModelType, true)
			case "status":
				ok = ok && matchString(c, lm.Status, true)
			case "source_run_id":
				ok = ok && matchString(c, lm.SourceRunID, true)
			case "creation_timestamp", "creation_time":
				ok = ok && matchNumber(c, float64(lm.Created))
			case "last_updated_timestamp":
				ok = ok && matchNumber(c, float64(lm.LastUpdate))
			}
			switch c.Kind {
			case KindTag:
				v, present := lm.Tags[c.Key]
				ok = matchString(c, v, present) && ok
			case KindMetric:
				v, present := latestModelMetric(lm.Metrics, c.Key, s.Datasets)
				ok = present && matchNumber(c, v) && ok
			}
		}
		if ok {
			hits = append(hits, lm)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		for _, o := range s.OrderBy {
			var less, greater bool
			switch o.Field {
			case "name":
				less, greater = a.Name < b.Name, a.Name > b.Name
			case "model_id":
				less, greater = a.ID < b.ID, a.ID > b.ID
			case "last_updated_timestamp":
				less, greater = a.LastUpdate < b.LastUpdate, a.LastUpdate > b.LastUpdate
			case "creation_timestamp", "creation_time":
				less, greater = a.Created < b.Created, a.Created > b.Created
			default:
				// metrics.<key>: models without the value last, either way
				av, aok := orderMetric(a, o)
				bv, bok := orderMetric(b, o)
				if aok != bok {
					return aok
				}
				less, greater = av < bv, av > bv
			}
			if less || greater {
				return less == o.Ascending
			}
		}
		if a.Created != b.Created {
			return a.Created > b.Created
		}
		return a.ID < b.ID
	})
	list, next, err := page(hits, s.PageToken, s.MaxResults)
	if err == nil && !needMetrics {
		err = fillMetrics(ctx, env, s.Company, list)
	}
	return list, next, err
}

// orderMetric is the value a metrics.<key> order term sorts m by.
func orderMetric(m *LoggedModel, o LoggedModelOrder) (float64, bool) {
	var ds []DatasetRef
	if o.Dataset != nil {
		ds = []DatasetRef{*o.Dataset}
	}
	return latestModelMetric(m.Metrics, strings.TrimPrefix(o.Field, "metrics."), ds)
}

// TagModelVersions is the logged model tag listing the registry versions
// made from the model.
const TagModelVersions = "mlflow.modelVersions"

// noteVersion adds version of registered model name to logged model id's
// TagModelVersions list (in q, the version's transaction).
func noteVersion(ctx context.Context, env *domain.Env, q store.Querier, company, id, name string, version int64) error {
	m, err := loadLoggedModel(ctx, env, q, company, id, true)
	if err != nil {
		return err
	}
	type entry struct {
		Name    string `json:"name"`
		Version int64  `json:"version"`
	}
	var list []entry
	if old := m.MLflow.Tags[TagModelVersions]; old != "" {
		_ = json.Unmarshal([]byte(old), &list)
	}
	list = append(list, entry{name, version})
	// Python's json.dumps spacing, as MLflow's client compares the text
	var sb strings.Builder
	sb.WriteString("[")
	for i, e := range list {
		if i > 0 {
			sb.WriteString(", ")
		}
		n, _ := json.Marshal(e.Name)
		sb.WriteString(`{"name": ` + string(n) + `, "version": ` + strconv.FormatInt(e.Version, 10) + `}`)
	}
	sb.WriteString("]")
	if m.MLflow.Tags == nil {
		m.MLflow.Tags = map[string]string{}
	}
	m.MLflow.Tags[TagModelVersions] = sb.String()
	m.LastUpdate = env.Time()
	return env.DB.Models().Update(ctx, q, m)
}
