package mlflow

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The GraphQL answer types. Each is filled from the REST answer of the
// same call (json tags are the REST names), so GraphQL answers what REST
// does; the GraphQL names are matched to the Go names by the library.
// Unset numbers and strings answer 0 and "" as MLflow's do.

// gqlLong is the LongString scalar: a 64-bit integer written as a string.
type gqlLong int64

func (gqlLong) ImplementsGraphQLType(name string) bool { return name == "LongString" }

// UnmarshalGraphQL reads an input: a GraphQL integer or a numeric string.
func (l *gqlLong) UnmarshalGraphQL(input any) error {
	switch v := input.(type) {
	case int32:
		*l = gqlLong(v)
	case int64:
		*l = gqlLong(v)
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > 1<<62 {
			return fmt.Errorf("LongString: %v is not an integer", v)
		}
		*l = gqlLong(v)
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return fmt.Errorf("LongString: %q is not an integer", v)
		}
		*l = gqlLong(n)
	default:
		return fmt.Errorf("LongString: wrong type %T", input)
	}
	return nil
}

func (l gqlLong) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strconv.FormatInt(int64(l), 10) + `"`), nil
}

// UnmarshalJSON reads a REST answer's number (or numeric string).
func (l *gqlLong) UnmarshalJSON(b []byte) error {
	n, err := strconv.ParseInt(strings.Trim(string(b), `"`), 10, 64)
	if err != nil {
		return err
	}
	*l = gqlLong(n)
	return nil
}

type gqlKV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// gqlAPIError is MLflow's apiError member, never set: errors are in the
// answer's "errors" list, as MLflow's server reports them.
type gqlAPIError struct {
	Code, Message, HelpURL, TraceID *string
	ErrorDetails                    *[]*gqlErrorDetail
}

type gqlErrorDetail struct{ Field, Message *string }

type gqlEcho struct{ Output *string }

type gqlExperiment struct {
	ExperimentID     string   `json:"experiment_id"`
	Name             string   `json:"name"`
	ArtifactLocation string   `json:"artifact_location"`
	LifecycleStage   string   `json:"lifecycle_stage"`
	LastUpdateTime   gqlLong  `json:"last_update_time"`
	CreationTime     gqlLong  `json:"creation_time"`
	Tags             []*gqlKV `json:"tags"`
	// MLflow 3.17's UI asks for both; Trove archives no traces and has
	// no workspaces (server-info says so), so they are null.
	EffectiveTraceArchivalRetention *string `json:"-"`
	Workspace                       *string `json:"-"`
}

type gqlGetExperiment struct {
	Experiment *gqlExperiment `json:"experiment"`
	APIError   *gqlAPIError   `json:"-"`
}

// gqlMetric is a metric point; its value is null when not finite (NaN
// and the infinities have no JSON number).
type gqlMetric struct {
	Key           string          `json:"key"`
	Raw           json.RawMessage `json:"value"`
	Timestamp     gqlLong         `json:"timestamp"`
	Step          gqlLong         `json:"step"`
	RunID         string          `json:"run_id"`
	DatasetName   string          `json:"-"`
	DatasetDigest string          `json:"-"`
	ModelID       string          `json:"-"`
}

func (m *gqlMetric) Value() *float64 {
	f, err := strconv.ParseFloat(string(m.Raw), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

type gqlRunInfo struct {
	RunID          string  `json:"run_id"`
	RunUUID        string  `json:"run_uuid"`
	RunName        string  `json:"run_name"`
	ExperimentID   string  `json:"experiment_id"`
	UserID         string  `json:"user_id"`
	Status         string  `json:"status"`
	StartTime      gqlLong `json:"start_time"`
	EndTime        gqlLong `json:"end_time"`
	ArtifactURI    string  `json:"artifact_uri"`
	LifecycleStage string  `json:"lifecycle_stage"`
}

type gqlRunData struct {
	Metrics []*gqlMetric `json:"metrics"`
	Params  []*gqlKV     `json:"params"`
	Tags    []*gqlKV     `json:"tags"`
}

type gqlDataset struct {
	Name       string `json:"name"`
	Digest     string `json:"digest"`
	SourceType string `json:"source_type"`
	Source     string `json:"source"`
	Schema     string `json:"schema"`
	Profile    string `json:"profile"`
}

type gqlDatasetInput struct {
	Tags    []*gqlKV    `json:"tags"`
	Dataset *gqlDataset `json:"dataset"`
}

type gqlModelRef struct {
	ModelID string  `json:"model_id"`
	Step    gqlLong `json:"step"`
}

type gqlRunInputs struct {
	DatasetInputs []*gqlDatasetInput `json:"dataset_inputs"`
	ModelInputs   []*gqlModelRef     `json:"model_inputs"`
}

type gqlRunOutputs struct {
	ModelOutputs []*gqlModelRef `json:"model_outputs"`
}

type gqlRunResponse struct {
	Run      *gqlRun      `json:"run"`
	APIError *gqlAPIError `json:"-"`
}

type gqlSearchRuns struct {
	Runs          []*gqlRun    `json:"runs"`
	NextPageToken string       `json:"next_page_token"`
	APIError      *gqlAPIError `json:"-"`
}

type gqlMetrics struct {
	Metrics  []*gqlMetric `json:"metrics"`
	APIError *gqlAPIError `json:"-"`
}

type gqlFileInfo struct {
	Path     string  `json:"path"`
	IsDir    bool    `json:"is_dir"`
	FileSize gqlLong `json:"file_size"`
}

type gqlArtifacts struct {
	RootURI       string         `json:"root_uri"`
	Files         []*gqlFileInfo `json:"files"`
	NextPageToken string         `json:"next_page_token"`
	APIError      *gqlAPIError   `json:"-"`
}

type gqlModelVersion struct {
	Name                 string    `json:"name"`
	Version              string    `json:"version"`
	CreationTimestamp    gqlLong   `json:"creation_timestamp"`
	LastUpdatedTimestamp gqlLong   `json:"last_updated_timestamp"`
	UserID               string    `json:"user_id"`
	CurrentStage         string    `json:"current_stage"`
	Description          string    `json:"description"`
	Source               string    `json:"source"`
	RunID                string    `json:"run_id"`
	Status               string    `json:"status"`
	StatusMessage        string    `json:"status_message"`
	Tags                 []*gqlKV  `json:"tags"`
	RunLink              string    `json:"run_link"`
	Aliases              []*string `json:"aliases"`
	ModelID              string    `json:"model_id"`
}

type gqlVersions struct {
	ModelVersions []*gqlModelVersion `json:"model_versions"`
	NextPageToken string             `json:"next_page_token"`
	APIError      *gqlAPIError       `json:"-"`
}

type gqlDatasetSummary struct {
	ExperimentID string `json:"experiment_id"`
	Name         string `json:"name"`
	Digest       string `json:"digest"`
	Context      string `json:"context"`
}

type gqlDatasets struct {
	DatasetSummaries []*gqlDatasetSummary `json:"dataset_summaries"`
	APIError         *gqlAPIError         `json:"-"`
}
