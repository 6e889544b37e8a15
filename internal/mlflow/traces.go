package mlflow

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// MLflow 3's traces (issue 38): a record kind of their own, per
// experiment of the company (table mlflow_traces). A trace's spans are
// the traces.json artifact the client uploads under the trace's artifact
// location, or the spans OTLP brings (mlflow_trace_spans).

// Trace states (MLflow 3's names; v2's TRACE_STATUS_UNSPECIFIED reads
// as STATE_UNSPECIFIED).
const (
	TraceOK          = "OK"
	TraceError       = "ERROR"
	TraceInProgress  = "IN_PROGRESS"
	TraceUnspecified = "STATE_UNSPECIFIED"
)

// Keys MLflow's client and server give meaning to.
const (
	TraceTagArtifactLocation = "mlflow.artifactLocation"
	TraceTagName             = "mlflow.traceName"
	TraceMetaSourceRun       = "mlflow.sourceRun"
	TraceMetaSchemaVersion   = "mlflow.trace_schema.version"
)

// Trace is a trace's info.
type Trace = store.Trace

// TraceStart is a new trace (v3's StartTraceV3 carries it whole; v2's
// start leaves the ID empty for the server to make).
type TraceStart struct {
	Company, User, ID, ExperimentID string
	RequestTime, Duration           int64
	State                           string
	ClientRequestID                 string
	RequestPreview, ResponsePreview string
	Tags, Metadata                  map[string]string
}

func traceNotFound(id string) error {
	return apierr.MLflowNotFound("Trace with ID %s is not found.", id)
}

// ParseTraceState reads a state in v3's or v2's spelling ("" is
// unspecified).
func ParseTraceState(s string) (string, error) {
	switch s {
	case TraceOK, TraceError, TraceInProgress:
		return s, nil
	case "", TraceUnspecified, "TRACE_STATUS_UNSPECIFIED":
		return TraceUnspecified, nil
	}
	return "", apierr.MLflowInvalidParameter("Invalid trace state '%s': one of OK, ERROR, IN_PROGRESS, STATE_UNSPECIFIED", s)
}

func checkTraceID(id string) error {
	if id == "" || len(id) > MaxTraceIDLen || strings.ContainsAny(id, "/\\\x00") || strings.Contains(id, "..") {
		return apierr.MLflowInvalidParameter("Invalid trace id '%s': 1 to %d characters, no '/', '\\' or '..'", trimForMsg(id), MaxTraceIDLen)
	}
	return nil
}

func trimForMsg(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}

func checkTraceMaps(tags, meta map[string]string) error {
	if len(tags) > MaxTraceEntries || len(meta) > MaxTraceEntries {
		return apierr.MLflowInvalidParameter("A trace takes at most %d tags and %d metadata entries", MaxTraceEntries, MaxTraceEntries)
	}
	for k, v := range tags {
		if err := CheckTag(k, v); err != nil {
			return err
		}
	}
	for k, v := range meta {
		if err := checkKey("metadata", k, MaxTagKeyLen); err != nil {
			return err
		}
		if len(v) > MaxTraceMetaValue {
			return apierr.MLflowInvalidParameter("Trace metadata '%s' had length %d, which exceeded length limit of %d", k, len(v), MaxTraceMetaValue)
		}
	}
	return nil
}

// StartTrace records a trace in an experiment of the company: v3's
// start (the whole trace, at its end) or v2's (IN_PROGRESS, ended later
// by EndTrace). The artifact location tag is the server's to set.
func StartTrace(ctx context.Context, env *domain.Env, in TraceStart) (*Trace, error) {
	v2 := in.ID == ""
	if v2 {
		in.ID = "tr-" + ids.New()
	}
	if err := checkTraceID(in.ID); err != nil {
		return nil, err
	}
	if in.ExperimentID == "" {
		return nil, missingParam("experiment_id")
	}
	if err := checkTraceMaps(in.Tags, in.Metadata); err != nil {
		return nil, err
	}
	if len(in.RequestPreview) > MaxTracePreview || len(in.ResponsePreview) > MaxTracePreview || len(in.ClientRequestID) > MaxTraceMetaValue {
		return nil, apierr.MLflowInvalidParameter("Trace previews are limited to %d bytes", MaxTracePreview)
	}
	if in.Duration < 0 {
		return nil, apierr.MLflowInvalidParameter("Invalid execution_duration %d: negative", in.Duration)
	}
	t := &Trace{ID: in.ID, RequestTime: in.RequestTime, Duration: in.Duration, State: in.State,
		Doc: store.TraceDoc{ClientRequestID: in.ClientRequestID, RequestPreview: in.RequestPreview,
			ResponsePreview: in.ResponsePreview, Tags: copyTags(in.Tags), Metadata: copyTags(in.Metadata)}}
	if t.Doc.Tags == nil {
		t.Doc.Tags = map[string]string{}
	}
	if t.Doc.Metadata == nil {
		t.Doc.Metadata = map[string]string{}
	}
	if v2 {
		t.State, t.Duration = TraceInProgress, 0
		t.Doc.Metadata[TraceMetaSchemaVersion] = "2"
	}
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		p, err := loadProject(ctx, env, q, in.Company, in.User, in.ExperimentID, true, false)
		if err != nil {
			return err
		}
		exp := ExperimentOf(p)
		t.ExperimentID = exp.ID
		t.Doc.Tags[TraceTagArtifactLocation] = strings.TrimSuffix(exp.ArtifactLocation, "/") + "/traces/" + t.ID + "/artifacts"
		old, err := env.DB.GetTrace(ctx, q, in.Company, t.ID, true)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return env.DB.InsertTrace(ctx, q, in.Company, t)
		case err != nil:
			return err
		case old.ExperimentID != t.ExperimentID:
			return apierr.MLflowAlreadyExists("Trace with ID %s already exists in another experiment", t.ID)
		}
		// the exporter may send a trace again: the last info wins, links stay
		t.Doc.RunIDs = old.Doc.RunIDs
		return env.DB.UpdateTrace(ctx, q, in.Company, t)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// EndTrace ends a v2 trace: the end time gives the duration, metadata
// and tags are merged into the trace's.
func EndTrace(ctx context.Context, env *domain.Env, company, id string, endTime int64, state string, meta, tags map[string]string) (*Trace, error) {
	if err := checkTraceMaps(tags, meta); err != nil {
		return nil, err
	}
	return editTrace(ctx, env, company, id, func(t *Trace) error {
		if endTime < t.RequestTime {
			return apierr.MLflowInvalidParameter("Invalid timestamp_ms %d: before the trace's start %d", endTime, t.RequestTime)
		}
		t.Duration, t.State = endTime-t.RequestTime, state
		for k, v := range meta {
			t.Doc.Metadata[k] = v
		}
		for k, v := range tags {
			t.Doc.Tags[k] = v
		}
		return checkTraceMaps(t.Doc.Tags, t.Doc.Metadata)
	})
}

// editTrace changes trace id in a transaction.
func editTrace(ctx context.Context, env *domain.Env, company, id string, edit func(t *Trace) error) (*Trace, error) {
	if id == "" {
		return nil, missingParam("trace_id")
	}
	var out *Trace
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		t, err := env.DB.GetTrace(ctx, q, company, id, true)
		if errors.Is(err, store.ErrNotFound) {
			return traceNotFound(id)
		}
		if err != nil {
			return err
		}
		if t.Doc.Tags == nil {
			t.Doc.Tags = map[string]string{}
		}
		if t.Doc.Metadata == nil {
			t.Doc.Metadata = map[string]string{}
		}
		if err := edit(t); err != nil {
			return err
		}
		out = t
		return env.DB.UpdateTrace(ctx, q, company, t)
	})
	return out, err
}

// GetTrace reads trace id of the company.
func GetTrace(ctx context.Context, env *domain.Env, company, id string) (*Trace, error) {
	if id == "" {
		return nil, missingParam("trace_id")
	}
	t, err := env.DB.GetTrace(ctx, env.DB.Read(), company, id, false)
	if errors.Is(err, store.ErrNotFound) {
		return nil, traceNotFound(id)
	}
	return t, err
}

// SetTraceTag sets (or, with del, removes) a tag of trace id.
func SetTraceTag(ctx context.Context, env *domain.Env, company, id, key, value string, del bool) error {
	if key == "" {
		return missingParam("key")
	}
	if !del {
		if err := CheckTag(key, value); err != nil {
			return err
		}
	}
	_, err := editTrace(ctx, env, company, id, func(t *Trace) error {
		if del {
			if _, ok := t.Doc.Tags[key]; !ok {
				return apierr.MLflowNotFound("No trace tag with key '%s' for trace with ID '%s'", key, id)
			}
			delete(t.Doc.Tags, key)
			return nil
		}
		t.Doc.Tags[key] = value
		return checkTraceMaps(t.Doc.Tags, nil)
	})
	return err
}

// TraceDelete is a delete-traces request: either by ids, or by time
// (traces started at or before MaxTime, at most MaxTraces, oldest first).
type TraceDelete struct {
	Company, ExperimentID string
	MaxTime               *int64
	MaxTraces             *int64
	IDs                   []string
}

// DeleteTraces removes traces of an experiment and answers how many.
func DeleteTraces(ctx context.Context, env *domain.Env, in TraceDelete) (int, error) {
	if in.ExperimentID == "" {
		return 0, missingParam("experiment_id")
	}
	switch {
	case in.MaxTime != nil && len(in.IDs) > 0:
		return 0, apierr.MLflowInvalidParameter("Only one of `max_timestamp_millis` and `request_ids` can be specified.")
	case in.MaxTime == nil && len(in.IDs) == 0:
		return 0, apierr.MLflowInvalidParameter("Either `max_timestamp_millis` or `request_ids` must be specified.")
	case in.MaxTraces != nil && len(in.IDs) > 0:
		return 0, apierr.MLflowInvalidParameter("`max_traces` can't be specified if `request_ids` is specified.")
	case in.MaxTraces != nil && *in.MaxTraces <= 0:
		return 0, apierr.MLflowInvalidParameter("`max_traces` must be a positive integer, received %d.", *in.MaxTraces)
	case len(in.IDs) > MaxTraceDeleteBatch:
		return 0, apierr.MLflowInvalidParameter("At most %d trace ids a call, got %d", MaxTraceDeleteBatch, len(in.IDs))
	}
	n := 0
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		var victims []string
		if in.MaxTime != nil {
			limit := int64(MaxTraceDeleteBatch)
			if in.MaxTraces != nil {
				limit = min(limit, *in.MaxTraces)
			}
			var err error
			if victims, err = env.DB.OldTraceIDs(ctx, q, in.Company, in.ExperimentID, *in.MaxTime, int(limit)); err != nil {
				return err
			}
		} else {
			// only the experiment's own traces: a foreign id is left alone
			for _, id := range in.IDs {
				t, err := env.DB.GetTrace(ctx, q, in.Company, id, false)
				if errors.Is(err, store.ErrNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				if t.ExperimentID == in.ExperimentID && !slices.Contains(victims, id) {
					victims = append(victims, id)
				}
			}
		}
		got, err := env.DB.DeleteTraces(ctx, q, in.Company, victims)
		n = int(got)
		return err
	})
	return n, err
}

// LinkTracesToRun links traces to a run of the company.
func LinkTracesToRun(ctx context.Context, env *domain.Env, company, runID string, traceIDs []string) error {
	if runID == "" {
		return missingParam("run_id")
	}
	if len(traceIDs) > MaxTraceLinks {
		return apierr.MLflowInvalidParameter("Cannot link more than %d traces to a run in a single request. Provided %d traces.", MaxTraceLinks, len(traceIDs))
	}
	if _, err := GetRun(ctx, env, company, runID); err != nil {
		return err
	}
	for _, id := range traceIDs {
		if _, err := editTrace(ctx, env, company, id, func(t *Trace) error {
			if slices.Contains(t.Doc.RunIDs, runID) {
				return nil
			}
			if len(t.Doc.RunIDs) >= MaxTraceRuns {
				return apierr.MLflowInvalidParameter("Trace %s is linked to %d runs already, the limit", id, MaxTraceRuns)
			}
			t.Doc.RunIDs = append(t.Doc.RunIDs, runID)
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// TraceRuns are the runs a trace belongs to: the run it was made under
// and the runs it was linked to.
func TraceRuns(t *Trace) []string {
	var out []string
	if r := t.Doc.Metadata[TraceMetaSourceRun]; r != "" {
		out = append(out, r)
	}
	for _, r := range t.Doc.RunIDs {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}
