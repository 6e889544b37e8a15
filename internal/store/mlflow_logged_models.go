package store

import "context"

// MLflow 3's logged models (issue 38) are rows of the models table whose
// id starts with "m-" (MLflow's form) and whose document has an "mlflow"
// part.

// LoggedModelPrefix starts the id of every logged model.
const LoggedModelPrefix = "m-"

// MLflowLoggedModel is the part of a model's document only the MLflow
// API uses.
type MLflowLoggedModel struct {
	ExperimentID     string            `json:"experiment_id"`
	ArtifactLocation string            `json:"artifact_location"`
	Status           string            `json:"status"`
	StatusMessage    string            `json:"status_message,omitempty"`
	ModelType        string            `json:"model_type,omitempty"`
	SourceRunID      string            `json:"source_run_id,omitempty"`
	Tags             map[string]string `json:"tags,omitempty"`
	Params           map[string]string `json:"params,omitempty"`
}

// LoggedModels lists the company's logged models in projects (all of
// them when projects is empty), newest first.
func (db *DB) LoggedModels(ctx context.Context, company string, projects []string) ([]*Model, error) {
	where, args := "company = ? AND id LIKE ?", []any{company, LoggedModelPrefix + "%"}
	if len(projects) > 0 {
		where += " AND project IN (" + Placeholders(len(projects)) + ")"
		args = append(args, Args(projects)...)
	}
	return db.Models().Select(ctx, db.Read(), where+" ORDER BY created DESC, id", args...)
}
