package mlflow

import (
	"context"
	"math"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Links between runs, logged models and datasets (MLflow 3): a metric
// point may name the model it measures and the dataset it was computed
// on; a run names the models it took as inputs (log-inputs) and those it
// produced (runs/outputs).

func checkLinks(l store.MetricLinks) error {
	for _, f := range [...]struct{ name, v string }{{"model_id", l.ModelID}, {"dataset_name", l.DatasetName}, {"dataset_digest", l.DatasetDigest}} {
		if len(f.v) > MaxLinkLen {
			return apierr.MLflowInvalidParameter("Metric '%s' had length %d, which exceeded length limit of %d", f.name, len(f.v), MaxLinkLen)
		}
	}
	return nil
}

// checkModels reports the first of ids that is not a logged model of
// company.
func checkModels(ctx context.Context, env *domain.Env, q store.Querier, company string, ids []string) error {
	if len(ids) > MaxRunModels {
		return apierr.MLflowInvalidParameter("A request can name at most %d models. Got %d.", MaxRunModels, len(ids))
	}
	for _, id := range ids {
		if _, err := loadLoggedModel(ctx, env, q, company, id, false); err != nil {
			return err
		}
	}
	return nil
}

// LogOutputs records logged models a run produced (runs/outputs); a
// model already recorded at the same step is kept once.
func LogOutputs(ctx context.Context, env *domain.Env, company, user, id string, outputs []store.MLflowModelOutput) error {
	ids := make([]string, len(outputs))
	for i, o := range outputs {
		if o.ModelID == "" {
			return missingParam("models.model_id")
		}
		ids[i] = o.ModelID
	}
	_, err := editRun(ctx, env, company, user, id, false, func(q store.Querier, t *store.Task) error {
		if err := checkModels(ctx, env, q, company, ids); err != nil {
			return err
		}
	next:
		for _, o := range outputs {
			for _, have := range t.MLflow.ModelOutputs {
				if *have == o {
					continue next
				}
			}
			t.MLflow.ModelOutputs = append(t.MLflow.ModelOutputs, &o)
		}
		return nil
	})
	return err
}

// ModelMetric is a metric point of a logged model, with its run.
type ModelMetric struct {
	Metric
	RunID string
}

// DatasetRef names a dataset of a logged models search (Digest "" for
// any digest).
type DatasetRef struct{ Name, Digest string }

func (d DatasetRef) matches(l store.MetricLinks) bool {
	return d.Name == l.DatasetName && (d.Digest == "" || d.Digest == l.DatasetDigest)
}

// modelMetrics reads the metric points of models (bounded), by model id.
func modelMetrics(ctx context.Context, env *domain.Env, company string, models []*LoggedModel) (map[string][]ModelMetric, error) {
	ids := make([]string, len(models))
	for i, m := range models {
		ids[i] = m.ID
	}
	pts, err := env.DB.ModelMetrics(ctx, company, ids, MaxModelMetricPoints+1)
	if err != nil {
		return nil, err
	}
	n := 0
	out := make(map[string][]ModelMetric, len(pts))
	for id, list := range pts {
		n += len(list)
		for _, p := range list {
			out[id] = append(out[id], ModelMetric{RunID: p.Task, Metric: Metric{Key: p.Key, Value: p.Value,
				Timestamp: p.Timestamp, Step: p.Step, MetricLinks: p.MetricLinks}})
		}
	}
	if n > MaxModelMetricPoints {
		return nil, apierr.MLflowInvalidParameter("The models hold more than %d metric points; search fewer experiments or models", MaxModelMetricPoints)
	}
	return out, nil
}

// fillMetrics sets the metrics of models.
func fillMetrics(ctx context.Context, env *domain.Env, company string, models []*LoggedModel) error {
	if len(models) == 0 {
		return nil
	}
	all, err := modelMetrics(ctx, env, company, models)
	if err != nil {
		return err
	}
	for _, m := range models {
		m.Metrics = all[m.ID]
	}
	return nil
}

// latestModelMetric is the latest point of key among ms on one of
// datasets (any point when datasets is empty), by MLflow's rule.
func latestModelMetric(ms []ModelMetric, key string, datasets []DatasetRef) (float64, bool) {
	var best *store.LatestMetric
	for _, m := range ms {
		if m.Key != key || !onDatasets(m.MetricLinks, datasets) {
			continue
		}
		if best == nil || newer(store.MetricPoint{Step: m.Step, Timestamp: m.Timestamp, Value: m.Value}, best) {
			best = &store.LatestMetric{Value: m.Value, Step: m.Step, Timestamp: m.Timestamp}
		}
	}
	if best == nil {
		return 0, false
	}
	v, ok := ParseValue(best.Value)
	return v, ok && !math.IsNaN(v)
}

func onDatasets(l store.MetricLinks, datasets []DatasetRef) bool {
	if len(datasets) == 0 {
		return true
	}
	for _, d := range datasets {
		if d.matches(l) {
			return true
		}
	}
	return false
}

// hasDatasetMetric reports whether ms holds a point on one of datasets.
func hasDatasetMetric(ms []ModelMetric, datasets []DatasetRef) bool {
	for _, m := range ms {
		if onDatasets(m.MetricLinks, datasets) {
			return true
		}
	}
	return false
}
