package serving

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
	servingdom "github.com/trove-ml/trove/internal/serving"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/workers"
)

// containerFields is what a container sends on register and report.
type containerFields struct {
	ContainerID        string          `json:"container_id" required:"true"`
	EndpointName       string          `json:"endpoint_name" required:"true"`
	EndpointURL        *string         `json:"endpoint_url"`
	ModelName          string          `json:"model_name" required:"true"`
	ModelSource        *string         `json:"model_source"`
	ModelVersion       *string         `json:"model_version"`
	PreprocessArtifact *string         `json:"preprocess_artifact"`
	InputType          *string         `json:"input_type"`
	InputSize          *scalarString   `json:"input_size"`
	Tags               []string        `json:"tags"`
	SystemTags         []string        `json:"system_tags"`
	Reference          []referenceItem `json:"reference"`
}

type referenceItem struct {
	Type  string `json:"type" required:"true"`
	Value string `json:"value" required:"true"`
}

// scalarString is a string field that also takes a number (input_size is
// often sent as a byte count), kept as the number's text.
type scalarString string

func (s *scalarString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var v string
		if err := jsonx.Unmarshal(b, &v); err != nil {
			return apierr.Validation("input_size", "expected a string or a number")
		}
		*s = scalarString(v)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return apierr.Validation("input_size", "expected a string or a number")
	}
	*s = scalarString(n.String())
	return nil
}

func (r *containerFields) Validate() error {
	for i, ref := range r.Reference {
		if ref.Type == "" {
			return apierr.Required("reference", i, "type")
		}
		if ref.Value == "" {
			return apierr.Required("reference", i, "value")
		}
		if !slices.Contains(servingdom.ReferenceTypes, ref.Type) {
			return apierr.Validation("reference", "item %d: type must be one of %v, not %q", i, servingdom.ReferenceTypes, ref.Type)
		}
	}
	return api.ValidateTagLists(r.Tags, r.SystemTags)
}

// container converts the fields for the domain.
func (r *containerFields) container() servingdom.Container {
	c := servingdom.Container{ContainerID: r.ContainerID, EndpointName: r.EndpointName, EndpointURL: r.EndpointURL,
		ModelName: r.ModelName, ModelSource: r.ModelSource, ModelVersion: r.ModelVersion,
		PreprocessArtifact: r.PreprocessArtifact, InputType: r.InputType, Tags: r.Tags, SystemTags: r.SystemTags}
	if r.InputSize != nil {
		v := string(*r.InputSize)
		c.InputSize = &v
	}
	for _, ref := range r.Reference {
		c.Reference = append(c.Reference, store.ServingReference{Type: ref.Type, Value: ref.Value})
	}
	return c
}

type registerRequest struct {
	containerFields
	// Timeout is in seconds (absent: the default).
	Timeout *int64 `json:"timeout"`
}

func (r *registerRequest) Validate() error {
	if r.Timeout != nil && *r.Timeout < 1 {
		return apierr.Validation("timeout", "must be at least 1 second")
	}
	return r.containerFields.Validate()
}

func (s *service) registerContainer(ctx context.Context, c *rpc.Call, req *registerRequest) (*struct{}, error) {
	var timeout int64
	if req.Timeout != nil {
		timeout = *req.Timeout
	}
	ct := req.container()
	return nil, servingdom.Register(ctx, &s.d.Env, c.Company(), api.RealIP(c), &ct, timeout)
}

type unregisterRequest struct {
	ContainerID string `json:"container_id" required:"true"`
}

func (s *service) unregisterContainer(ctx context.Context, c *rpc.Call, req *unregisterRequest) (*struct{}, error) {
	return nil, servingdom.Unregister(ctx, &s.d.Env, c.Company(), req.ContainerID)
}

type statusReportRequest struct {
	containerFields
	UptimeSec    *int64                `json:"uptime_sec"`
	RequestsNum  *int64                `json:"requests_num"`
	RequestsMin  *float64              `json:"requests_min"`
	LatencyMs    *int64                `json:"latency_ms"`
	MachineStats *workers.MachineStats `json:"machine_stats"`
}

// Validate: a report must name its endpoint URL, unlike a registration.
func (r *statusReportRequest) Validate() error {
	if r.EndpointURL == nil || *r.EndpointURL == "" {
		return apierr.Required("endpoint_url")
	}
	return r.containerFields.Validate()
}

func (s *service) statusReport(ctx context.Context, c *rpc.Call, req *statusReportRequest) (*struct{}, error) {
	r := servingdom.Report{Container: req.container(), UptimeSec: req.UptimeSec, RequestsNum: req.RequestsNum,
		RequestsMin: req.RequestsMin, LatencyMs: req.LatencyMs, MachineStats: req.MachineStats}
	return nil, servingdom.StatusReport(ctx, &s.d.Env, c.Company(), api.RealIP(c), &r)
}
