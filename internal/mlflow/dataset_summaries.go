package mlflow

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
)

// The UI's dataset summaries (experiments/search-datasets): the distinct
// (experiment, name, digest, context) of the datasets logged as run
// inputs (runs/log-inputs) in some experiments.

// summaryRunPage is the page of runs read at a time (its bounds are in
// limits.go).
const summaryRunPage = 1000

// DatasetSummary is one logged dataset of an experiment.
type DatasetSummary struct {
	ExperimentID, Name, Digest, Context string
}

// TagDatasetContext is the input tag naming a dataset's use.
const TagDatasetContext = "mlflow.data.context"

// SearchDatasetSummaries lists the datasets logged with the runs of
// experiments (unknown ids, or another company's, add nothing). Only
// the newest MaxSummaryRunsRead runs are looked at.
func SearchDatasetSummaries(ctx context.Context, env *domain.Env, company string, experiments []string) ([]DatasetSummary, error) {
	if len(experiments) == 0 {
		return nil, apierr.MLflowInvalidParameter("SearchDatasets request must specify at least one experiment_id.")
	}
	if len(experiments) > MaxSummaryExperiments {
		return nil, apierr.MLflowInvalidParameter("SearchDatasets request cannot specify more than %d experiment_ids. Received %d experiment_ids.", MaxSummaryExperiments, len(experiments))
	}
	seen := map[DatasetSummary]bool{}
	out := []DatasetSummary{}
	tok := ""
	for read := 0; read < MaxSummaryRunsRead; read += summaryRunPage {
		runs, next, err := SearchRuns(ctx, env, RunSearch{Company: company, ExperimentIDs: experiments,
			ViewType: ViewAll, MaxResults: summaryRunPage, PageToken: tok})
		if err != nil {
			return nil, err
		}
		for _, r := range runs {
			for _, in := range r.Inputs {
				s := DatasetSummary{ExperimentID: r.ExperimentID, Name: in.Name, Digest: in.Digest, Context: in.Tags[TagDatasetContext]}
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
			break
		}
		tok = next
	}
	return out, nil
}
