package mlflow

import (
	"encoding/json"
	"math"
	"slices"

	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/store"
)

// The answer shapes (MLflow's protobuf JSON: empty lists left out).

type kvJSON struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type experimentJSON struct {
	ExperimentID     string   `json:"experiment_id"`
	Name             string   `json:"name"`
	ArtifactLocation string   `json:"artifact_location"`
	LifecycleStage   string   `json:"lifecycle_stage"`
	LastUpdateTime   int64    `json:"last_update_time"`
	CreationTime     int64    `json:"creation_time"`
	Tags             []kvJSON `json:"tags,omitempty"`
}

func experimentWire(e *mlflow.Experiment) *experimentJSON {
	out := &experimentJSON{ExperimentID: e.ID, Name: e.Name, ArtifactLocation: e.ArtifactLocation,
		LifecycleStage: e.LifecycleStage, LastUpdateTime: e.LastUpdate, CreationTime: e.Created}
	for _, k := range sortedKeys(e.Tags) {
		out.Tags = append(out.Tags, kvJSON{k, e.Tags[k]})
	}
	return out
}

// metricValue is a metric value: a number, or "NaN", "Infinity" and
// "-Infinity" as protobuf's JSON writes them.
type metricValue string

func (v metricValue) MarshalJSON() ([]byte, error) {
	f, ok := mlflow.ParseValue(string(v))
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return json.Marshal(mlflow.FormatValue(f))
	}
	return []byte(mlflow.FormatValue(f)), nil
}

type metricJSON struct {
	Key       string      `json:"key"`
	Value     metricValue `json:"value"`
	Timestamp int64       `json:"timestamp"`
	Step      int64       `json:"step"`
	RunID     string      `json:"run_id,omitempty"`
	// the logged model and dataset the point names
	ModelID       string `json:"model_id,omitempty"`
	DatasetName   string `json:"dataset_name,omitempty"`
	DatasetDigest string `json:"dataset_digest,omitempty"`
}

// metricWire is a point's answer; run is "" where the call names it.
func metricWire(m mlflow.Metric, run string) metricJSON {
	return metricJSON{Key: m.Key, Value: metricValue(m.Value), Timestamp: m.Timestamp, Step: m.Step, RunID: run,
		ModelID: m.ModelID, DatasetName: m.DatasetName, DatasetDigest: m.DatasetDigest}
}

type runInfoJSON struct {
	RunID          string `json:"run_id"`
	RunUUID        string `json:"run_uuid"`
	RunName        string `json:"run_name"`
	ExperimentID   string `json:"experiment_id"`
	UserID         string `json:"user_id"`
	Status         string `json:"status"`
	StartTime      int64  `json:"start_time"`
	EndTime        *int64 `json:"end_time,omitempty"`
	ArtifactURI    string `json:"artifact_uri"`
	LifecycleStage string `json:"lifecycle_stage"`
}

type runDataJSON struct {
	Metrics []metricJSON `json:"metrics,omitempty"`
	Params  []kvJSON     `json:"params,omitempty"`
	Tags    []kvJSON     `json:"tags,omitempty"`
}

type datasetJSON struct {
	Name       string `json:"name"`
	Digest     string `json:"digest"`
	SourceType string `json:"source_type"`
	Source     string `json:"source"`
	Schema     string `json:"schema,omitempty"`
	Profile    string `json:"profile,omitempty"`
}

type datasetInputJSON struct {
	Tags    []kvJSON    `json:"tags,omitempty"`
	Dataset datasetJSON `json:"dataset"`
}

type modelInputJSON struct {
	ModelID string `json:"model_id"`
}

type modelOutputJSON struct {
	ModelID string `json:"model_id"`
	Step    int64  `json:"step"`
}

type runInputsJSON struct {
	DatasetInputs []datasetInputJSON `json:"dataset_inputs,omitempty"`
	ModelInputs   []modelInputJSON   `json:"model_inputs,omitempty"`
}

type runOutputsJSON struct {
	ModelOutputs []modelOutputJSON `json:"model_outputs,omitempty"`
}

type runJSON struct {
	Info    runInfoJSON     `json:"info"`
	Data    runDataJSON     `json:"data"`
	Inputs  runInputsJSON   `json:"inputs"`
	Outputs *runOutputsJSON `json:"outputs,omitempty"`
}

func runWire(r *mlflow.Run) *runJSON {
	out := &runJSON{Info: runInfoJSON{RunID: r.ID, RunUUID: r.ID, RunName: r.Name, ExperimentID: r.ExperimentID,
		UserID: r.UserID, Status: r.Status, StartTime: r.StartTime, EndTime: r.EndTime, ArtifactURI: r.ArtifactURI,
		LifecycleStage: r.LifecycleStage}}
	for _, m := range r.Metrics {
		out.Data.Metrics = append(out.Data.Metrics, metricWire(m, ""))
	}
	for _, p := range r.Params {
		out.Data.Params = append(out.Data.Params, kvJSON(p))
	}
	for _, t := range r.Tags {
		out.Data.Tags = append(out.Data.Tags, kvJSON(t))
	}
	for _, in := range r.Inputs {
		out.Inputs.DatasetInputs = append(out.Inputs.DatasetInputs, datasetInputWire(in))
	}
	for _, id := range r.ModelInputs {
		out.Inputs.ModelInputs = append(out.Inputs.ModelInputs, modelInputJSON{id})
	}
	if len(r.ModelOutputs) > 0 {
		out.Outputs = &runOutputsJSON{}
		for _, o := range r.ModelOutputs {
			out.Outputs.ModelOutputs = append(out.Outputs.ModelOutputs, modelOutputJSON{o.ModelID, o.Step})
		}
	}
	return out
}

func datasetInputWire(in *store.MLflowDatasetInput) datasetInputJSON {
	d := datasetInputJSON{Dataset: datasetJSON{Name: in.Name, Digest: in.Digest, SourceType: in.SourceType,
		Source: in.Source, Schema: in.Schema, Profile: in.Profile}}
	for _, k := range sortedKeys(in.Tags) {
		d.Tags = append(d.Tags, kvJSON{k, in.Tags[k]})
	}
	return d
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
