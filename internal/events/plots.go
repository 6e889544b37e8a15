package events

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// TaskPlots renders, per metric and variant, the plots of the last iters
// iterations of a readable task (or model).
func TaskPlots(ctx context.Context, d *domain.Env, company, id string, model bool, fs []eventstore.MetricFilter, iters int) ([]json.RawMessage, error) {
	t, err := Readable(ctx, d, company, id, model)
	if err != nil {
		return nil, err
	}
	rows, err := eventstore.Of(d.DB).LatestDocs(ctx, d.DB.Read(), t.ID, string(Plot), fs, iters)
	if err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, len(rows))
	for i := range rows {
		if out[i], err = RenderDoc(&rows[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// VectorHistory is a vector series' values per iteration, with the events
// they came from.
type VectorHistory struct {
	Vectors    []json.RawMessage
	Iterations []int64
	Events     []json.RawMessage
}

// VectorValues reads a vector series of a readable task (or model), at
// most limit iterations, ascending.
func VectorValues(ctx context.Context, d *domain.Env, company, id string, model bool, metric, variant string, limit int) (*VectorHistory, error) {
	t, err := Readable(ctx, d, company, id, model)
	if err != nil {
		return nil, err
	}
	rows, err := eventstore.Of(d.DB).Docs(ctx, d.DB.Read(), eventstore.DocQuery{Tasks: []string{t.ID}, EType: string(Vector),
		Metrics: []eventstore.MetricFilter{{Metric: metric, Variants: []string{variant}}}, Limit: limit, SkipPlotContents: true})
	if err != nil {
		return nil, err
	}
	out := &VectorHistory{Vectors: []json.RawMessage{}, Iterations: []int64{}, Events: []json.RawMessage{}}
	for _, r := range rows {
		var doc struct {
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(r.Doc, &doc); err != nil {
			return nil, err
		}
		out.Vectors = append(out.Vectors, doc.Value)
		out.Iterations = append(out.Iterations, r.Iter)
		out.Events = append(out.Events, r.Doc)
	}
	return out, nil
}
