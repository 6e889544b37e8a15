package store

import "context"

// DeleteExperimentRecords removes what the MLflow API keeps per
// experiment of company: the traces with their spans and assessments,
// the scorers, and the evaluation datasets' links to the experiments
// (the datasets themselves belong to the company and stay).
func (db *DB) DeleteExperimentRecords(ctx context.Context, q Querier, company string, experiments []string) error {
	for len(experiments) > 0 {
		part := experiments[:min(len(experiments), 500)]
		experiments = experiments[len(part):]
		args := append([]any{company}, Args(part)...)
		in := Placeholders(len(part))
		traces := `SELECT trace_id FROM mlflow_traces WHERE company = ? AND experiment_id IN (` + in + `)`
		for _, table := range []string{"mlflow_trace_spans", "mlflow_assessments"} {
			if _, err := q.ExecContext(ctx, `DELETE FROM `+table+` WHERE company = ? AND trace_id IN (`+traces+`)`,
				append([]any{company}, args...)...); err != nil {
				return err
			}
		}
		for _, stmt := range []string{
			`DELETE FROM mlflow_traces WHERE company = ? AND experiment_id IN (` + in + `)`,
			`DELETE FROM mlflow_scorers WHERE company = ? AND experiment IN (` + in + `)`,
			`DELETE FROM mlflow_eval_dataset_experiments WHERE company = ? AND experiment IN (` + in + `)`,
		} {
			if _, err := q.ExecContext(ctx, stmt, args...); err != nil {
				return err
			}
		}
	}
	return nil
}
