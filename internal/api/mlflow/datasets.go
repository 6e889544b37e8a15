package mlflow

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// MLflow 3's evaluation datasets (/api/3.0/mlflow/datasets/...) and the
// UI's summaries of the datasets logged with runs
// (experiments/search-datasets). Rules: internal/mlflow/eval_datasets.go.

func (s *Server) datasetTable() []endpoint {
	return []endpoint{
		{"experiments/search-datasets", post, rpc.Read, s.searchDatasetSummaries},
		{v3 + "datasets/create", post, rpc.Write, s.createEvalDataset},
		{v3 + "datasets/search", both, rpc.Read, s.searchEvalDatasets},
		{v3 + "datasets/{dataset_id}", get, rpc.Read, s.getEvalDataset},
		{v3 + "datasets/{dataset_id}", del, rpc.Write, s.deleteEvalDataset},
		{v3 + "datasets/{dataset_id}/tags", patch, rpc.Write, s.setEvalDatasetTags},
		{v3 + "datasets/{dataset_id}/tags/{key...}", del, rpc.Write, s.deleteEvalDatasetTag},
		{v3 + "datasets/{dataset_id}/records", post, rpc.Write, s.upsertEvalRecords},
		{v3 + "datasets/{dataset_id}/records", get, rpc.Read, s.getEvalRecords},
		{v3 + "datasets/{dataset_id}/experiment-ids", get, rpc.Read, s.getEvalDatasetExperiments},
	}
}

type datasetSummaryJSON struct {
	ExperimentID string `json:"experiment_id"`
	Name         string `json:"name"`
	Digest       string `json:"digest"`
	Context      string `json:"context,omitempty"`
}

func (s *Server) searchDatasetSummaries(ctx context.Context, c *call) (any, error) {
	exps, err := c.strs("experiment_ids")
	if err != nil {
		return nil, err
	}
	list, err := mlflow.SearchDatasetSummaries(ctx, s.env, c.id.CompanyID, exps)
	if err != nil {
		return nil, err
	}
	out := struct {
		Summaries []datasetSummaryJSON `json:"dataset_summaries,omitempty"`
	}{}
	for _, d := range list {
		out.Summaries = append(out.Summaries, datasetSummaryJSON(d))
	}
	return out, nil
}

type evalDatasetJSON struct {
	DatasetID      string   `json:"dataset_id"`
	Name           string   `json:"name"`
	Tags           string   `json:"tags,omitempty"`
	Schema         string   `json:"schema,omitempty"`
	Profile        string   `json:"profile,omitempty"`
	Digest         string   `json:"digest,omitempty"`
	CreatedTime    int64    `json:"created_time"`
	LastUpdateTime int64    `json:"last_update_time"`
	CreatedBy      string   `json:"created_by,omitempty"`
	LastUpdatedBy  string   `json:"last_updated_by,omitempty"`
	ExperimentIDs  []string `json:"experiment_ids,omitempty"`
}

func evalDatasetWire(d *mlflow.EvalDataset) *evalDatasetJSON {
	out := &evalDatasetJSON{DatasetID: d.ID, Name: d.Name, Schema: d.Schema, Profile: d.Profile, Digest: d.Digest,
		CreatedTime: d.Created, LastUpdateTime: d.LastUpdate, CreatedBy: d.CreatedBy, LastUpdatedBy: d.LastUpdatedBy,
		ExperimentIDs: d.ExperimentIDs}
	// MLflow sends a dataset's tags as one JSON object in a string
	tags := d.Tags
	if tags == nil {
		tags = map[string]string{}
	}
	b, _ := json.Marshal(tags)
	out.Tags = string(b)
	return out
}

func datasetAnswer(d *mlflow.EvalDataset, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return map[string]any{"dataset": evalDatasetWire(d)}, nil
}

// jsonTags reads a parameter holding tags as a JSON object in a string
// (MLflow's shape for dataset tags); a value that is not a string keeps
// its JSON text.
func jsonTags(c *call, name string, required bool) (map[string]string, error) {
	text, err := c.str(name)
	if err != nil {
		return nil, err
	}
	if text == "" {
		if required {
			return nil, missing(name)
		}
		return nil, nil
	}
	tags, err := mlflow.ParseJSONTags(text)
	if err != nil {
		return nil, apierr.MLflowInvalidParameter("Invalid value for parameter '%s': %v", name, err)
	}
	return tags, nil
}

func (s *Server) createEvalDataset(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	exps, err := c.strs("experiment_ids")
	if err != nil {
		return nil, err
	}
	tags, err := jsonTags(c, "tags", false)
	if err != nil {
		return nil, err
	}
	return datasetAnswer(mlflow.CreateEvalDataset(ctx, s.env, c.id.CompanyID, c.id.UserID, name, exps, tags))
}

func (s *Server) getEvalDataset(ctx context.Context, c *call) (any, error) {
	return datasetAnswer(mlflow.GetEvalDataset(ctx, s.env, c.id.CompanyID, c.path("dataset_id")))
}

func (s *Server) deleteEvalDataset(ctx context.Context, c *call) (any, error) {
	return empty{}, mlflow.DeleteEvalDataset(ctx, s.env, c.id.CompanyID, c.path("dataset_id"))
}

func (s *Server) setEvalDatasetTags(ctx context.Context, c *call) (any, error) {
	tags, err := jsonTags(c, "tags", true)
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.SetEvalDatasetTags(ctx, s.env, c.id.CompanyID, c.id.UserID, c.path("dataset_id"), tags)
}

func (s *Server) deleteEvalDatasetTag(ctx context.Context, c *call) (any, error) {
	return empty{}, mlflow.DeleteEvalDatasetTag(ctx, s.env, c.id.CompanyID, c.id.UserID, c.path("dataset_id"), c.path("key"))
}

func (s *Server) searchEvalDatasets(ctx context.Context, c *call) (any, error) {
	in := mlflow.EvalDatasetSearch{Company: c.id.CompanyID}
	var err error
	if in.ExperimentIDs, err = c.strs("experiment_ids"); err != nil {
		return nil, err
	}
	if in.Filter, err = c.str("filter_string"); err != nil {
		return nil, err
	}
	if in.OrderBy, err = c.strs("order_by"); err != nil {
		return nil, err
	}
	if in.PageToken, err = c.str("page_token"); err != nil {
		return nil, err
	}
	n, err := c.int64p("max_results")
	if err != nil {
		return nil, err
	}
	if n != nil {
		if *n < 1 || *n > mlflow.MaxEvalDatasetResults {
			return nil, apierr.MLflowInvalidParameter("Invalid value %d for parameter 'max_results' supplied. It must be between 1 and %d", *n, mlflow.MaxEvalDatasetResults)
		}
		in.MaxResults = int(*n)
	}
	list, next, err := mlflow.SearchEvalDatasets(ctx, s.env, in)
	if err != nil {
		return nil, err
	}
	out := struct {
		Datasets      []*evalDatasetJSON `json:"datasets,omitempty"`
		NextPageToken string             `json:"next_page_token,omitempty"`
	}{NextPageToken: next}
	for _, d := range list {
		out.Datasets = append(out.Datasets, evalDatasetWire(d))
	}
	return out, nil
}

func (s *Server) upsertEvalRecords(ctx context.Context, c *call) (any, error) {
	text, err := c.required("records")
	if err != nil {
		return nil, err
	}
	by, err := c.str("updated_by")
	if err != nil {
		return nil, err
	}
	records, err := mlflow.ParseRecords(text)
	if err != nil {
		return nil, err
	}
	res, err := mlflow.UpsertEvalRecords(ctx, s.env, c.id.CompanyID, c.id.UserID, c.path("dataset_id"), records, by)
	if err != nil {
		return nil, err
	}
	return map[string]int{"inserted_count": res.Inserted, "updated_count": res.Updated}, nil
}

// evalRecordJSON is a record inside the records answer's JSON text.
type evalRecordJSON struct {
	RecordID       string          `json:"dataset_record_id"`
	DatasetID      string          `json:"dataset_id"`
	Inputs         json.RawMessage `json:"inputs"`
	Expectations   json.RawMessage `json:"expectations,omitempty"`
	Tags           json.RawMessage `json:"tags,omitempty"`
	Source         json.RawMessage `json:"source,omitempty"`
	SourceID       string          `json:"source_id,omitempty"`
	SourceType     string          `json:"source_type,omitempty"`
	CreatedTime    int64           `json:"created_time"`
	LastUpdateTime int64           `json:"last_update_time"`
	CreatedBy      string          `json:"created_by,omitempty"`
	LastUpdatedBy  string          `json:"last_updated_by,omitempty"`
}

func evalRecordWire(dataset string, r *store.EvalRecord) evalRecordJSON {
	return evalRecordJSON{RecordID: r.ID, DatasetID: dataset, Inputs: r.Inputs, Expectations: r.Expectations, Tags: r.Tags,
		Source: r.Source, SourceID: r.SourceID, SourceType: r.SourceType, CreatedTime: r.Created, LastUpdateTime: r.LastUpdate,
		CreatedBy: r.CreatedBy, LastUpdatedBy: r.LastUpdatedBy}
}

func (s *Server) getEvalRecords(ctx context.Context, c *call) (any, error) {
	n, err := c.int64p("max_results")
	if err != nil {
		return nil, err
	}
	max := 0
	if n != nil {
		if *n < 1 || *n > mlflow.MaxRecordResults {
			return nil, apierr.MLflowInvalidParameter("Invalid value %d for parameter 'max_results' supplied. It must be between 1 and %d", *n, mlflow.MaxRecordResults)
		}
		max = int(*n)
	}
	tok, err := c.str("page_token")
	if err != nil {
		return nil, err
	}
	id := c.path("dataset_id")
	list, next, err := mlflow.EvalRecords(ctx, s.env, c.id.CompanyID, id, max, tok)
	if err != nil {
		return nil, err
	}
	wire := make([]evalRecordJSON, 0, len(list))
	for _, r := range list {
		wire = append(wire, evalRecordWire(id, r))
	}
	// MLflow sends the records as one JSON list in a string
	text, err := json.Marshal(wire)
	if err != nil {
		return nil, err
	}
	return struct {
		Records       string `json:"records"`
		NextPageToken string `json:"next_page_token,omitempty"`
	}{string(text), next}, nil
}

func (s *Server) getEvalDatasetExperiments(ctx context.Context, c *call) (any, error) {
	exps, err := mlflow.EvalDatasetExperiments(ctx, s.env, c.id.CompanyID, c.path("dataset_id"))
	if err != nil {
		return nil, err
	}
	return struct {
		ExperimentIDs []string `json:"experiment_ids,omitempty"`
	}{exps}, nil
}
