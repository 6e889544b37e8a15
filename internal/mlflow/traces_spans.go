package mlflow

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Spans logged one by one (OTLP's /v1/traces): stored per trace as
// MLflow's span dictionaries; a trace not yet known is made in the
// experiment, its times and state taken from its root span.

// LoggedSpan is one span to store.
type LoggedSpan struct {
	TraceID, SpanID, ParentID, Name string
	StartNs, EndNs                  int64
	// State is the trace state the span's status means (root spans set it).
	State string
	// Doc is the span as MLflow's span dictionary (JSON).
	Doc string
}

// LogSpans stores spans in experiment, making or updating their traces.
func LogSpans(ctx context.Context, env *domain.Env, company, user, experiment string, spans []LoggedSpan) error {
	if experiment == "" {
		return missingParam("x-mlflow-experiment-id")
	}
	if len(spans) > MaxSpansPerCall {
		return apierr.MLflowInvalidParameter("At most %d spans a call, got %d", MaxSpansPerCall, len(spans))
	}
	byTrace := map[string][]LoggedSpan{}
	var order []string
	for _, sp := range spans {
		if err := checkTraceID(sp.TraceID); err != nil {
			return err
		}
		if _, ok := byTrace[sp.TraceID]; !ok {
			order = append(order, sp.TraceID)
		}
		byTrace[sp.TraceID] = append(byTrace[sp.TraceID], sp)
	}
	return env.DB.Tx(ctx, func(q store.Querier) error {
		p, err := loadProject(ctx, env, q, company, user, experiment, true, false)
		if err != nil {
			return err
		}
		exp := ExperimentOf(p)
		for _, id := range order {
			list := byTrace[id]
			t, err := env.DB.GetTrace(ctx, q, company, id, true)
			fresh := errors.Is(err, store.ErrNotFound)
			if err != nil && !fresh {
				return err
			}
			if fresh {
				t = &Trace{ID: id, ExperimentID: exp.ID, State: TraceInProgress, RequestTime: list[0].StartNs / 1e6,
					Doc: store.TraceDoc{Tags: map[string]string{
						TraceTagArtifactLocation: exp.ArtifactLocation + "/traces/" + id + "/artifacts"},
						Metadata: map[string]string{TraceMetaSchemaVersion: "3"}}}
			} else if t.ExperimentID != exp.ID {
				return apierr.MLflowInvalidParameter("Trace %s belongs to experiment %s, not %s", id, t.ExperimentID, exp.ID)
			}
			rows := make([]store.TraceSpan, 0, len(list))
			for _, sp := range list {
				rows = append(rows, store.TraceSpan{SpanID: sp.SpanID, Doc: sp.Doc})
				if sp.ParentID == "" { // the root span gives the trace its times, state and name
					t.RequestTime, t.Duration = sp.StartNs/1e6, max(0, (sp.EndNs-sp.StartNs)/1e6)
					t.State = sp.State
					if t.Doc.Tags == nil {
						t.Doc.Tags = map[string]string{}
					}
					t.Doc.Tags[TraceTagName] = sp.Name
				}
			}
			if err := env.DB.PutTraceSpans(ctx, q, company, id, rows); err != nil {
				return err
			}
			if fresh {
				err = env.DB.InsertTrace(ctx, q, company, t)
			} else {
				err = env.DB.UpdateTrace(ctx, q, company, t)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}
