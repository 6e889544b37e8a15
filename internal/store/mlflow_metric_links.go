package store

import "context"

// A logged model's metrics (issue 38): the points of mlflow_metrics that
// name the model (migration 0140), from runs of the model's company.

// ModelMetricPoint is a point logged for a model, with its run.
type ModelMetricPoint struct {
	Task string
	MetricPoint
}

// ModelMetrics reads the points logged for models (by id) from company's
// runs, at most limit of them in all, by model, key, step, timestamp and
// insertion.
func (db *DB) ModelMetrics(ctx context.Context, company string, models []string, limit int) (map[string][]ModelMetricPoint, error) {
	out := map[string][]ModelMetricPoint{}
	if len(models) == 0 {
		return out, nil
	}
	args := append(Args(models), company, limit)
	rows, err := db.Read().QueryContext(ctx, `SELECT m.model_id, m.task, m.metric_key, m.step, m.ts, m.value, m.dataset_name, m.dataset_digest
		FROM mlflow_metrics m JOIN tasks t ON t.id = m.task
		WHERE m.model_id IN (`+Placeholders(len(models))+`) AND t.company = ?
		ORDER BY m.model_id, m.metric_key, m.step, m.ts, m.id LIMIT ?`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p ModelMetricPoint
		if err := rows.Scan(&p.ModelID, &p.Task, &p.Key, &p.Step, &p.Timestamp, &p.Value, &p.DatasetName, &p.DatasetDigest); err != nil {
			return nil, err
		}
		out[p.ModelID] = append(out[p.ModelID], p)
	}
	return out, rows.Err()
}
