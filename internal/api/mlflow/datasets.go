package mlflow

import (
	"context"

	"github.com/trove-ml/trove/internal/mlflow"
)

// searchDatasets answers experiments/search-datasets (the UI's, and
// GraphQL's mlflowSearchDatasets): the distinct datasets the runs of up
// to 20 experiments logged.
func (s *Server) searchDatasets(ctx context.Context, c *call) (any, error) {
	ids, err := c.strs("experiment_ids")
	if err != nil {
		return nil, err
	}
	list, err := mlflow.SearchDatasets(ctx, s.env, c.id.CompanyID, ids)
	if err != nil {
		return nil, err
	}
	type summaryJSON struct {
		ExperimentID string `json:"experiment_id"`
		Name         string `json:"name"`
		Digest       string `json:"digest"`
		Context      string `json:"context,omitempty"`
	}
	out := struct {
		Summaries []summaryJSON `json:"dataset_summaries,omitempty"`
	}{}
	for _, d := range list {
		out.Summaries = append(out.Summaries, summaryJSON(d))
	}
	return out, nil
}
