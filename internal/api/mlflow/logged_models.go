package mlflow

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// MLflow 3's logged models (issue 38): /logged-models/{model_id}[/...]
// paths, the id (and a tag's key) read as parameters (router.go).

func (s *Server) loggedModelTable() []endpoint {
	return []endpoint{
		{"logged-models", post, rpc.Write, s.createLoggedModel},
		{"logged-models/search", post, rpc.Read, s.searchLoggedModels},
		{"logged-models/{model_id}", get, rpc.Read, s.getLoggedModel},
		{"logged-models/{model_id}", patch, rpc.Write, s.finalizeLoggedModel},
		{"logged-models/{model_id}", del, rpc.Write, s.deleteLoggedModel},
		{"logged-models/{model_id}/tags", patch, rpc.Write, s.setLoggedModelTags},
		{"logged-models/{model_id}/tags/{tag_key...}", del, rpc.Write, s.deleteLoggedModelTag},
		{"logged-models/{model_id}/params", post, rpc.Write, s.logLoggedModelParams},
		{"logged-models/{model_id}/artifacts/directories", get, rpc.Read, s.listLoggedModelArtifacts},
		{"runs/outputs", post, rpc.Write, s.logOutputs},
	}
}

// loggedModelFile answers /logged-models/{model_id}/artifacts/files,
// a download streamed outside the JSON table.
func (s *Server) routeLoggedModelFile(w http.ResponseWriter, r *http.Request, rest string) bool {
	id, sub, _ := strings.Cut(rest, "/")
	if sub != "artifacts/files" {
		return false
	}
	s.serveRaw(w, r, rpc.Read, func(w http.ResponseWriter, r *http.Request, who *auth.Identity) error {
		return s.loggedModelFile(w, r, who, id)
	})
	return true
}

type loggedModelJSON struct {
	Info struct {
		ModelID                string   `json:"model_id"`
		ExperimentID           string   `json:"experiment_id"`
		Name                   string   `json:"name"`
		CreationTimestampMs    int64    `json:"creation_timestamp_ms"`
		LastUpdatedTimestampMs int64    `json:"last_updated_timestamp_ms"`
		ArtifactURI            string   `json:"artifact_uri"`
		Status                 string   `json:"status"`
		ModelType              string   `json:"model_type,omitempty"`
		SourceRunID            string   `json:"source_run_id,omitempty"`
		StatusMessage          string   `json:"status_message,omitempty"`
		Tags                   []kvJSON `json:"tags,omitempty"`
	} `json:"info"`
	Data struct {
		Params  []kvJSON     `json:"params,omitempty"`
		Metrics []metricJSON `json:"metrics,omitempty"`
	} `json:"data"`
}

func loggedModelWire(m *mlflow.LoggedModel) *loggedModelJSON {
	out := &loggedModelJSON{}
	i := &out.Info
	i.ModelID, i.ExperimentID, i.Name, i.CreationTimestampMs, i.LastUpdatedTimestampMs = m.ID, m.ExperimentID, m.Name, m.Created, m.LastUpdate
	// creator_id is a number in MLflow's schema: Trove's user ids are not
	i.ArtifactURI, i.Status, i.ModelType, i.SourceRunID, i.StatusMessage = m.ArtifactURI, m.Status, m.ModelType, m.SourceRunID, m.StatusMessage
	for _, k := range sortedKeys(m.Tags) {
		i.Tags = append(i.Tags, kvJSON{k, m.Tags[k]})
	}
	for _, k := range sortedKeys(m.Params) {
		out.Data.Params = append(out.Data.Params, kvJSON{k, m.Params[k]})
	}
	for _, p := range m.Metrics {
		out.Data.Metrics = append(out.Data.Metrics, metricWire(p.Metric, p.RunID))
	}
	return out
}

var loggedModelAnswer = answerUnder("model", loggedModelWire)

func (s *Server) createLoggedModel(ctx context.Context, c *call) (any, error) {
	in := mlflow.LoggedModelCreate{Company: c.id.CompanyID, User: c.id.UserID}
	var err error
	if in.ExperimentID, err = c.required("experiment_id"); err != nil {
		return nil, err
	}
	for name, dst := range map[string]*string{"name": &in.Name, "model_type": &in.ModelType, "source_run_id": &in.SourceRunID} {
		if *dst, err = c.str(name); err != nil {
			return nil, err
		}
	}
	var tags, params []kvJSON
	if err := c.list("tags", &tags); err != nil {
		return nil, err
	}
	if err := c.list("params", &params); err != nil {
		return nil, err
	}
	in.Tags, in.Params = tagMap(tags), tagMap(params)
	return loggedModelAnswer(mlflow.CreateLoggedModel(ctx, s.env, in))
}

func (s *Server) getLoggedModel(ctx context.Context, c *call) (any, error) {
	return loggedModelAnswer(mlflow.GetLoggedModel(ctx, s.env, c.id.CompanyID, c.path("model_id")))
}

func (s *Server) finalizeLoggedModel(ctx context.Context, c *call) (any, error) {
	status, err := c.required("status")
	if err != nil {
		return nil, err
	}
	return loggedModelAnswer(mlflow.FinalizeLoggedModel(ctx, s.env, c.id.CompanyID, c.id.UserID, c.path("model_id"), status))
}

func (s *Server) deleteLoggedModel(ctx context.Context, c *call) (any, error) {
	return empty{}, mlflow.DeleteLoggedModel(ctx, s.env, c.id.CompanyID, c.path("model_id"))
}

func (s *Server) setLoggedModelTags(ctx context.Context, c *call) (any, error) {
	var tags []kvJSON
	if err := c.list("tags", &tags); err != nil {
		return nil, err
	}
	return loggedModelAnswer(mlflow.SetLoggedModelTags(ctx, s.env, c.id.CompanyID, c.id.UserID, c.path("model_id"), tagMap(tags)))
}

func (s *Server) deleteLoggedModelTag(ctx context.Context, c *call) (any, error) {
	return empty{}, mlflow.DeleteLoggedModelTag(ctx, s.env, c.id.CompanyID, c.id.UserID, c.path("model_id"), c.path("tag_key"))
}

func (s *Server) logLoggedModelParams(ctx context.Context, c *call) (any, error) {
	var params []kvJSON
	if err := c.list("params", &params); err != nil {
		return nil, err
	}
	return empty{}, mlflow.LogLoggedModelParams(ctx, s.env, c.id.CompanyID, c.id.UserID, c.path("model_id"), tagMap(params))
}

// orderIn is an order term of a logged models search.
type orderIn struct {
	FieldName     string  `json:"field_name"`
	Ascending     *bool   `json:"ascending"`
	DatasetName   *string `json:"dataset_name"`
	DatasetDigest string  `json:"dataset_digest"`
}

// datasetIn is a dataset of a logged models search.
type datasetIn struct {
	DatasetName   string `json:"dataset_name"`
	DatasetDigest string `json:"dataset_digest"`
}

func (s *Server) searchLoggedModels(ctx context.Context, c *call) (any, error) {
	in := mlflow.LoggedModelSearch{Company: c.id.CompanyID}
	var err error
	if in.ExperimentIDs, err = c.strs("experiment_ids"); err != nil {
		return nil, err
	}
	if in.Filter, err = c.str("filter"); err != nil {
		return nil, err
	}
	if in.PageToken, err = c.str("page_token"); err != nil {
		return nil, err
	}
	if in.MaxResults, err = c.maxResults(); err != nil {
		return nil, err
	}
	var order []orderIn
	if err := c.list("order_by", &order); err != nil {
		return nil, err
	}
	for _, o := range order {
		lo := mlflow.LoggedModelOrder{Field: o.FieldName, Ascending: o.Ascending == nil || *o.Ascending}
		if o.DatasetName != nil {
			lo.Dataset = &mlflow.DatasetRef{Name: *o.DatasetName, Digest: o.DatasetDigest}
		}
		in.OrderBy = append(in.OrderBy, lo)
	}
	var datasets []datasetIn
	if err := c.list("datasets", &datasets); err != nil {
		return nil, err
	}
	if len(datasets) > mlflow.MaxBatchTags {
		return nil, apierr.MLflowInvalidParameter("A search can name at most %d datasets. Got %d.", mlflow.MaxBatchTags, len(datasets))
	}
	for i, d := range datasets {
		if d.DatasetName == "" {
			return nil, missing("datasets[" + strconv.Itoa(i) + "].dataset_name")
		}
		in.Datasets = append(in.Datasets, mlflow.DatasetRef{Name: d.DatasetName, Digest: d.DatasetDigest})
	}
	list, next, err := mlflow.SearchLoggedModels(ctx, s.env, in)
	if err != nil {
		return nil, err
	}
	return struct {
		Models        []*loggedModelJSON `json:"models,omitempty"`
		NextPageToken string             `json:"next_page_token,omitempty"`
	}{wireAll(list, loggedModelWire), next}, nil
}

// listLoggedModelArtifacts lists a folder of a logged model's artifacts
// (artifact_directory_path, "" for its root).
func (s *Server) listLoggedModelArtifacts(ctx context.Context, c *call) (any, error) {
	m, err := mlflow.GetLoggedModel(ctx, s.env, c.id.CompanyID, c.path("model_id"))
	if err != nil {
		return nil, err
	}
	sub, err := c.str("artifact_directory_path")
	if err != nil {
		return nil, err
	}
	dir := artifactDir(m.ArtifactURI)
	if dir == "" {
		return nil, apierr.MLflowInvalidParameter("The artifacts of model '%s' are not stored by this server (%s)", m.ID, m.ArtifactURI)
	}
	if sub != "" {
		if sub, err = cleanArtifactPath(sub); err != nil {
			return nil, err
		}
		dir += "/" + sub
	}
	list, err := s.env.DB.ListArtifacts(ctx, c.id.CompanyID, dir, mlflow.MaxArtifactList)
	if err != nil {
		return nil, err
	}
	out := struct {
		RootURI string             `json:"root_uri"`
		Files   []artifactFileJSON `json:"files,omitempty"`
	}{RootURI: m.ArtifactURI}
	for _, f := range listEntries(dir, list) {
		if sub != "" {
			f.Path = sub + "/" + f.Path
		}
		out.Files = append(out.Files, f)
	}
	return out, nil
}

// modelOutputIn is one model of a log-outputs request.
type modelOutputIn struct {
	ModelID string `json:"model_id"`
	Step    int64  `json:"step"`
}

// logOutputs records that a run produced logged models (runs/outputs):
// the run and the models must exist; runs/get answers them as the run's
// outputs.
func (s *Server) logOutputs(ctx context.Context, c *call) (any, error) {
	id, err := c.required("run_id")
	if err != nil {
		return nil, err
	}
	var models []modelOutputIn
	if err := c.list("models", &models); err != nil {
		return nil, err
	}
	outs := make([]store.MLflowModelOutput, len(models))
	for i, m := range models {
		outs[i] = store.MLflowModelOutput{ModelID: m.ModelID, Step: m.Step}
	}
	return empty{}, mlflow.LogOutputs(ctx, s.env, c.id.CompanyID, c.id.UserID, id, outs)
}

// loggedModelFile answers GET logged-models/<id>/artifacts/files?
// artifact_file_path=: one file of a logged model, as an attachment.
func (s *Server) loggedModelFile(w http.ResponseWriter, r *http.Request, who *auth.Identity, id string) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return methodRefused(r, "GET")
	}
	m, err := mlflow.GetLoggedModel(r.Context(), s.env, who.CompanyID, id)
	if err != nil {
		return err
	}
	dir := artifactDir(m.ArtifactURI)
	if dir == "" {
		return apierr.MLflowInvalidParameter("The artifacts of model '%s' are not stored by this server (%s)", m.ID, m.ArtifactURI)
	}
	p, err := cleanArtifactPath(r.URL.Query().Get("artifact_file_path"))
	if err != nil {
		return err
	}
	return s.downloadArtifact(w, r, who, dir+"/"+p)
}
