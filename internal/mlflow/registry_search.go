package mlflow

import (
	"context"
	"sort"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Searches of registered models and model versions: filtered and sorted
// in memory (a company's registry is small), then cut into pages.

// RegistrySearch is a search of registered models or versions.
type RegistrySearch struct {
	Company    string
	Filter     string
	OrderBy    []string
	MaxResults int
	PageToken  string
}

var modelAttrs = entityAttrs{"name": false}
var modelOrderAttrs = map[string]bool{"name": true, "timestamp": true, "creation_timestamp": true, "last_updated_timestamp": true}
var versionAttrs = entityAttrs{"name": false, "run_id": false, "source_path": false, "version_number": true, "current_stage": false}
var versionOrderAttrs = map[string]bool{"name": true, "version_number": true, "timestamp": true, "creation_timestamp": true, "last_updated_timestamp": true}

// prepare checks a search's page size (def when not given, at most
// limit) and parses its filter and order terms.
func (s *RegistrySearch) prepare(def, limit int, attrs entityAttrs, orderAttrs map[string]bool) ([]Clause, []entityOrder, error) {
	var err error
	if s.MaxResults, err = pageSize(s.MaxResults, def, limit, registryWording); err != nil {
		return nil, nil, err
	}
	clauses, err := parseEntityFilter(s.Filter, attrs)
	if err != nil {
		return nil, nil, err
	}
	order, err := parseEntityOrder(s.OrderBy, orderAttrs)
	return clauses, order, err
}

// sortValues are the values of a registered model or version that a
// search sorts by.
type sortValues struct {
	name                      string
	version, created, updated int64
}

// by is the value of order key; one of the two results is zero.
func (v sortValues) by(key string) (string, int64) {
	switch key {
	case "name":
		return v.name, 0
	case "version_number":
		return "", v.version
	case "last_updated_timestamp":
		return "", v.updated
	}
	return "", v.created
}

// sortRegistry sorts hits by order, stably, reading each one's values
// with values.
func sortRegistry[T any](hits []T, order []entityOrder, values func(T) sortValues) {
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := values(hits[i]), values(hits[j])
		for _, o := range order {
			as, an := a.by(o.Key)
			bs, bn := b.by(o.Key)
			if as != bs {
				return (as < bs) != o.Desc
			}
			if an != bn {
				return (an < bn) != o.Desc
			}
		}
		return false
	})
}

// SearchRegisteredModels lists registered models matching a filter.
func SearchRegisteredModels(ctx context.Context, env *domain.Env, s RegistrySearch) ([]*RegisteredModel, string, error) {
	clauses, order, err := s.prepare(DefRegistryResults, MaxRegistryResults, modelAttrs, modelOrderAttrs)
	if err != nil {
		return nil, "", err
	}
	all, err := env.DB.RegisteredModels(ctx, s.Company)
	if err != nil {
		return nil, "", err
	}
	var hits []*store.RegisteredModel
	for _, m := range all {
		ok := true
		for _, c := range clauses {
			if c.Kind == KindTag {
				v, present := m.Tags[c.Key]
				ok = ok && matchString(c, v, present)
			} else {
				ok = ok && matchString(c, m.Name, true)
			}
		}
		if ok {
			hits = append(hits, m)
		}
	}
	order = append(order, entityOrder{Key: "name"})
	sortRegistry(hits, order, func(m *store.RegisteredModel) sortValues {
		return sortValues{name: m.Name, created: m.Created, updated: m.LastUpdate}
	})
	pg, next, err := page(hits, s.PageToken, s.MaxResults)
	if err != nil {
		return nil, "", err
	}
	var out []*RegisteredModel
	for _, m := range pg {
		vs, err := env.DB.ModelVersions(ctx, env.DB.Read(), s.Company, m.Name)
		if err != nil {
			return nil, "", err
		}
		out = append(out, &RegisteredModel{RegisteredModel: m, Latest: latest(vs, nil)})
	}
	return out, next, nil
}

// SearchModelVersions lists versions matching a filter.
func SearchModelVersions(ctx context.Context, env *domain.Env, s RegistrySearch) ([]*ModelVersion, string, error) {
	clauses, order, err := s.prepare(DefVersionResultsUI, MaxVersionResults, versionAttrs, versionOrderAttrs)
	if err != nil {
		return nil, "", err
	}
	q := env.DB.Read()
	all, err := env.DB.ModelVersions(ctx, q, s.Company, "")
	if err != nil {
		return nil, "", err
	}
	var hits []*store.ModelVersion
	for _, v := range all {
		ok := true
		for _, c := range clauses {
			switch {
			case c.Kind == KindTag:
				val, present := v.Tags[c.Key]
				ok = ok && matchString(c, val, present)
			case c.Key == "name":
				ok = ok && matchString(c, v.Name, true)
			case c.Key == "run_id":
				ok = ok && matchString(c, v.RunID, true)
			case c.Key == "source_path":
				ok = ok && matchString(c, v.Source, true)
			case c.Key == "current_stage":
				ok = ok && matchString(c, v.Stage, true)
			case c.Key == "version_number":
				ok = ok && matchNumber(c, float64(v.Version))
			}
		}
		if ok {
			hits = append(hits, v)
		}
	}
	order = append(order, entityOrder{Key: "name"}, entityOrder{Key: "version_number", Desc: true})
	sortRegistry(hits, order, func(v *store.ModelVersion) sortValues {
		return sortValues{name: v.Name, version: v.Version, created: v.Created, updated: v.LastUpdate}
	})
	pg, next, err := page(hits, s.PageToken, s.MaxResults)
	if err != nil {
		return nil, "", err
	}
	models := map[string]*store.RegisteredModel{}
	var out []*ModelVersion
	for _, v := range pg {
		m := models[v.Name]
		if m == nil {
			if m, err = env.DB.GetRegisteredModel(ctx, q, s.Company, v.Name, false); err != nil {
				return nil, "", err
			}
			models[v.Name] = m
		}
		out = append(out, &ModelVersion{ModelVersion: v, Aliases: aliasesOf(m, v.Version)})
	}
	return out, next, nil
}
