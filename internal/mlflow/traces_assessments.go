package mlflow

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// Assessments of traces (MLflow 3, issue 38): feedback or expectations
// on a trace, kept as documents (mlflow_assessments). An assessment may
// override another of its trace, which is then no longer valid until the
// overriding one is deleted.

// Assessment sources.
var assessmentSources = map[string]bool{"HUMAN": true, "LLM_JUDGE": true, "CODE": true, "SOURCE_TYPE_UNSPECIFIED": true}

// AssessmentSource says who assessed.
type AssessmentSource struct {
	Type string `json:"source_type"`
	ID   string `json:"source_id,omitempty"`
}

// Assessment is an assessment's document. Feedback and Expectation are
// MLflow's JSON objects, kept as given (only their size is bounded);
// times are epoch ms.
type Assessment struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	TraceID     string            `json:"trace_id"`
	SpanID      string            `json:"span_id,omitempty"`
	Source      *AssessmentSource `json:"source,omitempty"`
	Created     int64             `json:"created"`
	LastUpdate  int64             `json:"last_update"`
	Feedback    json.RawMessage   `json:"feedback,omitempty"`
	Expectation json.RawMessage   `json:"expectation,omitempty"`
	Rationale   string            `json:"rationale,omitempty"`
	Error       json.RawMessage   `json:"error,omitempty"`
	Metadata    map[string]string `json:"metadata,omitempty"`
	Overrides   string            `json:"overrides,omitempty"`
	Valid       bool              `json:"valid"`
}

func assessmentNotFound(trace, id string) error {
	return apierr.MLflowNotFound("Assessment with ID '%s' not found for trace '%s'", id, trace)
}

func isJSONObject(raw json.RawMessage) bool {
	return len(raw) > 0 && strings.HasPrefix(strings.TrimSpace(string(raw)), "{")
}

// checkAssessment checks the parts a create or an update sets.
func checkAssessment(a *Assessment) error {
	if a.Name == "" {
		return missingParam("assessment.assessment_name")
	}
	if len(a.Name) > MaxAssessmentNameLen {
		return apierr.MLflowInvalidParameter("Assessment name had length %d, which exceeded length limit of %d", len(a.Name), MaxAssessmentNameLen)
	}
	if (len(a.Feedback) > 0) == (len(a.Expectation) > 0) {
		return apierr.MLflowInvalidParameter("An assessment takes exactly one of 'feedback' and 'expectation'")
	}
	for name, raw := range map[string]json.RawMessage{"feedback": a.Feedback, "expectation": a.Expectation, "error": a.Error} {
		if len(raw) == 0 {
			continue
		}
		if !isJSONObject(raw) {
			return apierr.MLflowInvalidParameter("Invalid value for 'assessment.%s': expected an object", name)
		}
		if len(raw) > MaxAssessmentValue {
			return apierr.MLflowInvalidParameter("'assessment.%s' is %d bytes, the limit is %d", name, len(raw), MaxAssessmentValue)
		}
	}
	if len(a.Rationale) > MaxAssessmentValue {
		return apierr.MLflowInvalidParameter("'assessment.rationale' is %d bytes, the limit is %d", len(a.Rationale), MaxAssessmentValue)
	}
	if a.Source != nil && !assessmentSources[a.Source.Type] {
		return apierr.MLflowInvalidParameter("Invalid assessment source type '%s': one of HUMAN, LLM_JUDGE, CODE", a.Source.Type)
	}
	return checkTraceMaps(nil, a.Metadata)
}

// CreateAssessment adds an assessment to a trace of the company.
func CreateAssessment(ctx context.Context, env *domain.Env, company string, a *Assessment) (*Assessment, error) {
	if a.TraceID == "" {
		return nil, missingParam("assessment.trace_id")
	}
	if a.Source == nil {
		return nil, missingParam("assessment.source")
	}
	if err := checkAssessment(a); err != nil {
		return nil, err
	}
	now := env.Time().Millis()
	a.ID, a.Created, a.LastUpdate, a.Valid = "a-"+ids.New(), now, now, true
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := env.DB.GetTrace(ctx, q, company, a.TraceID, true); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return traceNotFound(a.TraceID)
			}
			return err
		}
		if a.Overrides != "" {
			old := &Assessment{}
			if err := env.DB.GetAssessment(ctx, q, company, a.TraceID, a.Overrides, old); err != nil {
				if errors.Is(err, store.ErrNotFound) {
					return assessmentNotFound(a.TraceID, a.Overrides)
				}
				return err
			}
			old.Valid = false
			if err := env.DB.UpdateAssessment(ctx, q, company, old.ID, old); err != nil {
				return err
			}
		}
		return env.DB.InsertAssessment(ctx, q, company, a.TraceID, a.ID, a)
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// GetAssessment reads assessment id of a trace of the company.
func GetAssessment(ctx context.Context, env *domain.Env, company, trace, id string) (*Assessment, error) {
	return getAssessment(ctx, env, env.DB.Read(), company, trace, id)
}

func getAssessment(ctx context.Context, env *domain.Env, q store.Querier, company, trace, id string) (*Assessment, error) {
	a := &Assessment{}
	err := env.DB.GetAssessment(ctx, q, company, trace, id, a)
	if errors.Is(err, store.ErrNotFound) {
		return nil, assessmentNotFound(trace, id)
	}
	return a, err
}

// TraceAssessments reads the assessments of a trace.
func TraceAssessments(ctx context.Context, env *domain.Env, company, trace string) ([]*Assessment, error) {
	docs, err := env.DB.TraceAssessments(ctx, env.DB.Read(), company, trace, MaxAssessmentsRead)
	if err != nil {
		return nil, err
	}
	out := make([]*Assessment, 0, len(docs))
	for _, d := range docs {
		a := &Assessment{}
		if err := json.Unmarshal([]byte(d), a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// UpdateAssessment changes the fields mask names (MLflow's field mask:
// assessment_name, feedback, expectation, rationale, metadata, in
// snake or camel case) of an assessment to those of in.
func UpdateAssessment(ctx context.Context, env *domain.Env, company, trace, id string, in *Assessment, mask []string) (*Assessment, error) {
	if len(mask) == 0 {
		return nil, missingParam("update_mask")
	}
	var out *Assessment
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		a, err := getAssessment(ctx, env, q, company, trace, id)
		if err != nil {
			return err
		}
		for _, f := range mask {
			switch strings.TrimSpace(f) {
			case "assessment_name", "assessmentName":
				a.Name = in.Name
			case "feedback":
				a.Feedback, a.Expectation = in.Feedback, nil
			case "expectation":
				a.Expectation, a.Feedback = in.Expectation, nil
			case "rationale":
				a.Rationale = in.Rationale
			case "metadata":
				a.Metadata = in.Metadata
			case "span_id", "spanId":
				a.SpanID = in.SpanID
			case "valid":
				a.Valid = in.Valid
			default:
				return apierr.MLflowInvalidParameter("Invalid field '%s' in update_mask: one of assessment_name, feedback, expectation, rationale, metadata, span_id, valid", f)
			}
		}
		if err := checkAssessment(a); err != nil {
			return err
		}
		a.LastUpdate = env.Time().Millis()
		out = a
		return env.DB.UpdateAssessment(ctx, q, company, a.ID, a)
	})
	return out, err
}

// DeleteAssessment removes an assessment; the one it overrode is valid
// again.
func DeleteAssessment(ctx context.Context, env *domain.Env, company, trace, id string) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		a, err := getAssessment(ctx, env, q, company, trace, id)
		if err != nil {
			return err
		}
		if a.Overrides != "" {
			old := &Assessment{}
			err := env.DB.GetAssessment(ctx, q, company, trace, a.Overrides, old)
			if err == nil {
				old.Valid = true
				if err := env.DB.UpdateAssessment(ctx, q, company, old.ID, old); err != nil {
					return err
				}
			} else if !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		return env.DB.DeleteAssessment(ctx, q, company, id)
	})
}
