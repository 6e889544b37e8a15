package mlflow

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// MLflow 3's evaluation datasets (issue 38): a record kind of their own
// (store: mlflow_eval_datasets), per company, linked to experiments
// (projects). Records live in eval_dataset_records.go.

// EvalDatasetIDPrefix starts a dataset's id. Its bounds are in limits.go.
const EvalDatasetIDPrefix = "d-"

// EvalDataset is a dataset as MLflow answers it.
type EvalDataset struct {
	*store.EvalDataset
	ExperimentIDs []string
}

func evalDatasetNotFound(id string) error {
	return apierr.MLflowNotFound("Evaluation dataset with id '%s' not found", id)
}

// datasetDigest is a short fingerprint of a dataset's name and change
// time (what MLflow's dataset digest identifies: a version).
func datasetDigest(name string, ms int64) string {
	sum := sha256.Sum256([]byte(name + "\x00" + strconv.FormatInt(ms, 10)))
	return hex.EncodeToString(sum[:4])
}

// ParseJSONTags reads tags sent as one JSON object in a string (MLflow's
// shape for a dataset's tags); a value that is not a string keeps its
// JSON text.
func ParseJSONTags(text string) (map[string]string, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil || raw == nil {
		return nil, errors.New("expected a JSON object of tags")
	}
	tags := make(map[string]string, len(raw))
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			tags[k] = s
		} else {
			tags[k] = strings.TrimSpace(string(v))
		}
	}
	return tags, nil
}

func checkEvalTags(tags map[string]string) error {
	if len(tags) > MaxEvalDatasetTags {
		return apierr.MLflowInvalidParameter("A dataset takes at most %d tags, got %d", MaxEvalDatasetTags, len(tags))
	}
	for k, v := range tags {
		if err := CheckTag(k, v); err != nil {
			return err
		}
	}
	return nil
}

// CreateEvalDataset makes a dataset linked to experiments (each one of
// the company's; none is allowed: MLflow's client names its active
// experiment itself).
func CreateEvalDataset(ctx context.Context, env *domain.Env, company, user, name string, experiments []string, tags map[string]string) (*EvalDataset, error) {
	if strings.TrimSpace(name) == "" {
		return nil, missingParam("name")
	}
	if len(name) > MaxNameLen {
		return nil, apierr.MLflowInvalidParameter("Dataset name had length %d, which exceeded length limit of %d", len(name), MaxNameLen)
	}
	if err := checkEvalTags(tags); err != nil {
		return nil, err
	}
	now := env.Time().Millis()
	d := &store.EvalDataset{ID: EvalDatasetIDPrefix + ids.New(), Name: name, Created: now, LastUpdate: now,
		Digest: datasetDigest(name, now), Tags: copyTags(tags)}
	if by := tags[TagUser]; by != "" {
		d.CreatedBy, d.LastUpdatedBy = by, by
	}
	var refs []string
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		if refs, err = experimentRefs(ctx, env, q, company, user, experiments, true); err != nil {
			return err
		}
		if err := env.DB.PutEvalDataset(ctx, q, company, d); err != nil {
			return err
		}
		return env.DB.LinkEvalDataset(ctx, q, company, d.ID, refs)
	})
	if err != nil {
		return nil, err
	}
	return &EvalDataset{EvalDataset: d, ExperimentIDs: refs}, nil
}

// loadEvalDataset reads dataset id of company.
func loadEvalDataset(ctx context.Context, env *domain.Env, q store.Querier, company, id string, lock bool) (*store.EvalDataset, error) {
	if id == "" {
		return nil, missingParam("dataset_id")
	}
	d, err := env.DB.GetEvalDataset(ctx, q, company, id, lock)
	if errors.Is(err, store.ErrNotFound) {
		return nil, evalDatasetNotFound(id)
	}
	return d, err
}

// GetEvalDataset reads dataset id with its experiments.
func GetEvalDataset(ctx context.Context, env *domain.Env, company, id string) (*EvalDataset, error) {
	q := env.DB.Read()
	d, err := loadEvalDataset(ctx, env, q, company, id, false)
	if err != nil {
		return nil, err
	}
	exps, err := env.DB.EvalDatasetExperiments(ctx, q, company, id)
	if err != nil {
		return nil, err
	}
	return &EvalDataset{EvalDataset: d, ExperimentIDs: exps}, nil
}

// EvalDatasetExperiments lists the experiments dataset id is linked to.
func EvalDatasetExperiments(ctx context.Context, env *domain.Env, company, id string) ([]string, error) {
	d, err := GetEvalDataset(ctx, env, company, id)
	if err != nil {
		return nil, err
	}
	return d.ExperimentIDs, nil
}

// DeleteEvalDataset removes dataset id, its records and links. Deleting
// a dataset that is not there succeeds, as in MLflow (delete is
// idempotent).
func DeleteEvalDataset(ctx context.Context, env *domain.Env, company, id string) error {
	if id == "" {
		return missingParam("dataset_id")
	}
	return env.DB.Tx(ctx, func(q store.Querier) error {
		return env.DB.DeleteEvalDataset(ctx, q, company, id)
	})
}

// editEvalDataset changes dataset id in a transaction.
func editEvalDataset(ctx context.Context, env *domain.Env, company, user, id string, edit func(q store.Querier, d *store.EvalDataset) error) (*store.EvalDataset, error) {
	var out *store.EvalDataset
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		d, err := loadEvalDataset(ctx, env, q, company, id, true)
		if err != nil {
			return err
		}
		if err := edit(q, d); err != nil {
			return err
		}
		d.LastUpdate = max(env.Time().Millis(), d.LastUpdate)
		out = d
		return env.DB.PutEvalDataset(ctx, q, company, d)
	})
	return out, err
}

// SetEvalDatasetTags merges tags into dataset id's tags.
func SetEvalDatasetTags(ctx context.Context, env *domain.Env, company, user, id string, tags map[string]string) error {
	for k, v := range tags {
		if err := CheckTag(k, v); err != nil {
			return err
		}
	}
	_, err := editEvalDataset(ctx, env, company, user, id, func(_ store.Querier, d *store.EvalDataset) error {
		if d.Tags == nil {
			d.Tags = map[string]string{}
		}
		for k, v := range tags {
			d.Tags[k] = v
		}
		if len(d.Tags) > MaxEvalDatasetTags {
			return apierr.MLflowInvalidParameter("A dataset takes at most %d tags, it would have %d", MaxEvalDatasetTags, len(d.Tags))
		}
		return nil
	})
	return err
}

// DeleteEvalDatasetTag removes a tag (a missing tag is no error, as in
// MLflow).
func DeleteEvalDatasetTag(ctx context.Context, env *domain.Env, company, user, id, key string) error {
	_, err := editEvalDataset(ctx, env, company, user, id, func(_ store.Querier, d *store.EvalDataset) error {
		delete(d.Tags, key)
		return nil
	})
	return err
}

// EvalDatasetSearch is a search-evaluation-datasets request.
type EvalDatasetSearch struct {
	Company       string
	ExperimentIDs []string
	Filter        string
	OrderBy       []string
	MaxResults    int
	PageToken     string
}

var evalDatasetAttrs = entityAttrs{"name": false, "dataset_id": false, "digest": false, "created_by": false,
	"last_updated_by": false, "created_time": true, "last_update_time": true}
var evalDatasetOrderAttrs = map[string]bool{"name": true, "dataset_id": true, "created_time": true, "last_update_time": true}

func evalDatasetMatches(d *store.EvalDataset, clauses []Clause) bool {
	for _, c := range clauses {
		if c.Kind == KindTag {
			v, present := d.Tags[c.Key]
			if !matchString(c, v, present) {
				return false
			}
			continue
		}
		ok := true
		switch c.Key {
		case "name":
			ok = matchString(c, d.Name, true)
		case "dataset_id":
			ok = matchString(c, d.ID, true)
		case "digest":
			ok = matchString(c, d.Digest, true)
		case "created_by":
			ok = matchString(c, d.CreatedBy, d.CreatedBy != "")
		case "last_updated_by":
			ok = matchString(c, d.LastUpdatedBy, d.LastUpdatedBy != "")
		case "created_time":
			ok = matchNumber(c, float64(d.Created))
		case "last_update_time":
			ok = matchNumber(c, float64(d.LastUpdate))
		}
		if !ok {
			return false
		}
	}
	return true
}

// SearchEvalDatasets filters and orders the company's datasets (the
// newest MaxEvalDatasetsSearched of them) in the domain.
func SearchEvalDatasets(ctx context.Context, env *domain.Env, s EvalDatasetSearch) ([]*EvalDataset, string, error) {
	if s.MaxResults == 0 {
		s.MaxResults = DefEvalDatasetResults
	}
	if s.MaxResults < 0 || s.MaxResults > MaxEvalDatasetResults {
		return nil, "", apierr.MLflowInvalidParameter("Invalid value %d for parameter 'max_results' supplied. It must be between 1 and %d", s.MaxResults, MaxEvalDatasetResults)
	}
	clauses, err := parseEntityFilter(s.Filter, evalDatasetAttrs)
	if err != nil {
		return nil, "", err
	}
	order, err := parseEntityOrder(s.OrderBy, evalDatasetOrderAttrs)
	if err != nil {
		return nil, "", err
	}
	refs, err := experimentRefs(ctx, env, env.DB.Read(), s.Company, "", s.ExperimentIDs, false)
	if err != nil {
		return nil, "", err
	}
	list, err := env.DB.EvalDatasets(ctx, s.Company, refs, MaxEvalDatasetsSearched)
	if err != nil {
		return nil, "", err
	}
	var hits []*store.EvalDataset
	for _, d := range list {
		if evalDatasetMatches(d, clauses) {
			hits = append(hits, d)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		for _, o := range order {
			var c int
			switch o.Key {
			case "name":
				c = strings.Compare(a.Name, b.Name)
			case "dataset_id":
				c = strings.Compare(a.ID, b.ID)
			case "created_time":
				c = cmp.Compare(a.Created, b.Created)
			case "last_update_time":
				c = cmp.Compare(a.LastUpdate, b.LastUpdate)
			}
			if c != 0 {
				return (c < 0) != o.Desc
			}
		}
		return false
	})
	cut, next, err := page(hits, s.PageToken, s.MaxResults)
	if err != nil {
		return nil, "", err
	}
	out := make([]*EvalDataset, 0, len(cut))
	for _, d := range cut {
		exps, err := env.DB.EvalDatasetExperiments(ctx, env.DB.Read(), s.Company, d.ID)
		if err != nil {
			return nil, "", err
		}
		out = append(out, &EvalDataset{EvalDataset: d, ExperimentIDs: exps})
	}
	return out, next, nil
}
