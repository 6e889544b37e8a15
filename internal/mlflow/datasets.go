package mlflow

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
)

const (
	// datasetRunPage is how many runs one read of a dataset search takes.
	datasetRunPage = 1000
)

// DatasetContextTag is the input tag that names a dataset's use
// ("training", "eval", ...).
const DatasetContextTag = "mlflow.data.context"

// DatasetSummary is one distinct dataset logged to an experiment's runs,
// with the context it was logged in ("" when none was given).
type DatasetSummary struct {
	ExperimentID, Name, Digest, Context string
}

// SearchDatasets lists the distinct datasets (name, digest, context) that
// the runs of the given experiments logged as inputs, deleted runs
// included, at most MaxDatasetSummaries. Another company's experiment
// reads as unknown.
func SearchDatasets(ctx context.Context, env *domain.Env, company string, experimentIDs []string) ([]DatasetSummary, error) {
	if len(experimentIDs) == 0 {
		return nil, apierr.MLflowInvalidParameter("SearchDatasets request must specify at least one experiment_id.")
	}
	if len(experimentIDs) > MaxDatasetExperiments {
		return nil, apierr.MLflowInvalidParameter("SearchDatasets request cannot specify more than %d experiment_ids. Received %d experiment_ids.",
			MaxDatasetExperiments, len(experimentIDs))
	}
	var out []DatasetSummary
	seen := map[DatasetSummary]bool{}
	tok := ""
	for {
		runs, next, err := SearchRuns(ctx, env, RunSearch{Company: company, ExperimentIDs: experimentIDs,
			MaxResults: datasetRunPage, PageToken: tok, ViewType: ViewAll})
		if err != nil {
			return nil, err
		}
		for _, r := range runs {
			for _, in := range r.Inputs {
				s := DatasetSummary{ExperimentID: r.ExperimentID, Name: in.Name, Digest: in.Digest, Context: in.Tags[DatasetContextTag]}
				if seen[s] {
					continue
				}
				seen[s] = true
				out = append(out, s)
				if len(out) == MaxDatasetSummaries {
					return out, nil
				}
			}
		}
		if next == "" {
			return out, nil
		}
		tok = next
	}
}
