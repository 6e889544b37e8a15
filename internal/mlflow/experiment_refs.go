package mlflow

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// experimentRef checks that experiment id is one of the company's and
// answers the id records keep for it (the Default experiment is "0").
// create makes the Default experiment's project when it is not there
// yet (writes); a read of a Default without a project answers "0".
func experimentRef(ctx context.Context, env *domain.Env, q store.Querier, company, user, id string, create bool) (string, error) {
	if id == "" {
		return "", apierr.MLflowInvalidParameter("Missing value for required parameter 'experiment_id'.")
	}
	p, err := loadProject(ctx, env, q, company, user, id, create, false)
	if err != nil {
		return "", err
	}
	if p == nil {
		return DefaultID, nil
	}
	return ExperimentID(p), nil
}

// experimentRefs is experimentRef over a list (at most MaxExperimentRefs,
// duplicates once).
func experimentRefs(ctx context.Context, env *domain.Env, q store.Querier, company, user string, ids []string, create bool) ([]string, error) {
	if len(ids) > MaxExperimentRefs {
		return nil, apierr.MLflowInvalidParameter("At most %d experiment_ids may be given, got %d", MaxExperimentRefs, len(ids))
	}
	var out []string
	seen := map[string]bool{}
	for _, id := range ids {
		ref, err := experimentRef(ctx, env, q, company, user, id, create)
		if err != nil {
			return nil, err
		}
		if !seen[ref] {
			seen[ref] = true
			out = append(out, ref)
		}
	}
	return out, nil
}
