package mlflow

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// MLflow 3's scorers (issue 38): named, numbered versions of a
// serialized scorer definition per experiment (store: mlflow_scorers).
// The definition is text kept as given: Trove never runs it.

// scorerInsertTries bounds the retries of a version number taken by a
// concurrent register (the scorers' bounds are in limits.go).
const scorerInsertTries = 3

func scorerNotFound(experiment, name string, version int64) error {
	if version > 0 {
		return apierr.MLflowNotFound("Scorer with name '%s' and version %d not found for experiment %s.", name, version, experiment)
	}
	return apierr.MLflowNotFound("Scorer with name '%s' not found for experiment %s.", name, experiment)
}

func checkScorerName(name string) error {
	if strings.TrimSpace(name) == "" {
		return missingParam("name")
	}
	if len(name) > MaxScorerNameLen {
		return apierr.MLflowInvalidParameter("Scorer name had length %d, which exceeded length limit of %d", len(name), MaxScorerNameLen)
	}
	return nil
}

// RegisterScorer adds the next version of scorer name to an active
// experiment and answers its number (1 for a new name; the highest
// version there plus one).
func RegisterScorer(ctx context.Context, env *domain.Env, company, user, experiment, name, serialized string) (int64, error) {
	if err := checkScorerName(name); err != nil {
		return 0, err
	}
	if serialized == "" {
		return 0, missingParam("serialized_scorer")
	}
	if len(serialized) > MaxSerializedScorerLen {
		return 0, apierr.MLflowInvalidParameter("Parameter 'serialized_scorer' had length %d, which exceeded length limit of %d", len(serialized), MaxSerializedScorerLen)
	}
	var version int64
	var err error
	// two registrations at once may pick the same number: the loser
	// tries again with the next one
	for try := 0; try < scorerInsertTries; try++ {
		err = env.DB.Tx(ctx, func(q store.Querier) error {
			p, err := loadProject(ctx, env, q, company, user, experiment, true, false)
			if err != nil {
				return err
			}
			if domain.HasTag(p.SystemTags, tagArchived) {
				return apierr.MLflowInvalidParameter("The experiment %s must be in the 'active' state. Current state is deleted.", experiment)
			}
			ref := ExperimentID(p)
			last, err := env.DB.LastScorerVersion(ctx, q, company, ref, name)
			if err != nil {
				return err
			}
			version = last + 1
			return env.DB.InsertScorer(ctx, q, company, &store.Scorer{Experiment: ref, Name: name, Version: version,
				Created: env.Time().Millis(), Serialized: serialized})
		})
		if !errors.Is(err, store.ErrDuplicate) {
			break
		}
	}
	if errors.Is(err, store.ErrDuplicate) {
		return 0, apierr.MLflowInvalidParameter("Scorer '%s' was registered concurrently; try again", name)
	}
	return version, err
}

// ListScorers answers the latest version of each scorer of experiment.
func ListScorers(ctx context.Context, env *domain.Env, company, experiment string) ([]*store.Scorer, error) {
	ref, err := experimentRef(ctx, env, env.DB.Read(), company, "", experiment, false)
	if err != nil {
		return nil, err
	}
	all, err := env.DB.Scorers(ctx, company, ref, "", 0)
	if err != nil {
		return nil, err
	}
	var out []*store.Scorer
	for _, s := range all { // by name, then version: the last of a name is its latest
		if n := len(out); n > 0 && out[n-1].Name == s.Name {
			out[n-1] = s
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

// ScorerVersions answers every version of scorer name (not found when
// it has none).
func ScorerVersions(ctx context.Context, env *domain.Env, company, experiment, name string) ([]*store.Scorer, error) {
	if err := checkScorerName(name); err != nil {
		return nil, err
	}
	ref, err := experimentRef(ctx, env, env.DB.Read(), company, "", experiment, false)
	if err != nil {
		return nil, err
	}
	list, err := env.DB.Scorers(ctx, company, ref, name, 0)
	if err == nil && len(list) == 0 {
		err = scorerNotFound(experiment, name, 0)
	}
	return list, err
}

// GetScorer answers version of scorer name (0: the latest).
func GetScorer(ctx context.Context, env *domain.Env, company, experiment, name string, version int64) (*store.Scorer, error) {
	if err := checkScorerName(name); err != nil {
		return nil, err
	}
	ref, err := experimentRef(ctx, env, env.DB.Read(), company, "", experiment, false)
	if err != nil {
		return nil, err
	}
	list, err := env.DB.Scorers(ctx, company, ref, name, version)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, scorerNotFound(experiment, name, version)
	}
	return list[len(list)-1], nil
}

// DeleteScorer removes version of scorer name (0: every version).
func DeleteScorer(ctx context.Context, env *domain.Env, company, experiment, name string, version int64) error {
	if err := checkScorerName(name); err != nil {
		return err
	}
	return env.DB.Tx(ctx, func(q store.Querier) error {
		ref, err := experimentRef(ctx, env, q, company, "", experiment, false)
		if err != nil {
			return err
		}
		n, err := env.DB.DeleteScorers(ctx, q, company, ref, name, version)
		if err == nil && n == 0 {
			err = scorerNotFound(experiment, name, version)
		}
		return err
	})
}
