package models

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/query"
)

// ListInput is a ModelsQuery (get_all, get_all_ex, get_by_id_ex).
type ListInput struct {
	Company string
	Request *query.Request
	// Body is the raw request, for the query's own fields.
	Body []byte
	// IncludeSubprojects widens the project filter to subprojects.
	IncludeSubprojects bool
	Ex                 bool
	AllowPublic        bool
	// Stats adds stats.labels_count to each item.
	Stats bool
	// Convert, when set, turns stored documents into list items.
	Convert query.DocConverter
}

// List runs a ModelsQuery. Own and (when allowed) public models are visible.
func List(ctx context.Context, env *domain.Env, in ListInput) (*query.Result, error) {
	body := in.Body
	if in.IncludeSubprojects {
		var err error
		if body, err = withSubprojects(ctx, env, in.Company, body); err != nil {
			return nil, err
		}
	}
	plan, err := query.Build(env.DB.D, Schema, in.Request, body, query.Options{Ex: in.Ex, Skip: []string{"include_stats"}})
	if err != nil {
		return nil, err
	}
	plan.WhereIn("company", domain.Readable(in.Company, in.AllowPublic))
	plan.ConvertDocs(in.Convert)
	res, err := plan.Run(ctx, env.DB, "models", in.Company, refTables)
	if err != nil {
		return nil, err
	}
	if in.Stats {
		if err := addStats(ctx, env, res.Items); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// withSubprojects rewrites the body's project filter to include every
// descendant of the projects named (include_subprojects).
func withSubprojects(ctx context.Context, env *domain.Env, company string, body []byte) ([]byte, error) {
	raw := map[string]json.RawMessage{}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, apierr.ValidationMsg("request body: %s", err.Error())
	}
	pv, ok := raw["project"]
	if !ok || bytes.Equal(bytes.TrimSpace(pv), []byte("null")) {
		return body, nil
	}
	var items []*string
	if err := json.Unmarshal(pv, &items); err != nil {
		var one string
		if json.Unmarshal(pv, &one) != nil {
			return body, nil // not a list of ids: the query reports it
		}
		items = []*string{&one}
	}
	tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), domain.Visible(company)...)
	if err != nil {
		return nil, err
	}
	// Ids gain their descendants; null ("no project") and list operators stay.
	var out []any
	for _, it := range items {
		if it == nil {
			out = append(out, nil)
			continue
		}
		if strings.HasPrefix(*it, "__$") || strings.HasPrefix(*it, "-") || *it == "" {
			out = append(out, *it)
			continue
		}
		for _, id := range tree.WithDescendants([]string{*it}) {
			out = append(out, id)
		}
	}
	expanded, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	raw["project"] = expanded
	return json.Marshal(raw)
}

// addStats adds stats.labels_count to each item (get_all_ex include_stats).
func addStats(ctx context.Context, env *domain.Env, items []map[string]any) error {
	if len(items) == 0 {
		return nil
	}
	ids := make([]string, 0, len(items))
	for _, it := range items {
		if id, ok := it["id"].(string); ok {
			ids = append(ids, id)
		}
	}
	recs, err := env.DB.Models().GetMany(ctx, env.DB.Read(), ids)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for _, m := range recs {
		counts[m.ID] = len(m.Labels)
	}
	for _, it := range items {
		id, _ := it["id"].(string)
		it["stats"] = map[string]any{"labels_count": counts[id]}
	}
	return nil
}

// ReadOne reads one own or public model through the list machinery, so
// that projection and hidden fields behave as in get_all; convert (nil:
// none) turns the stored document into the item.
func ReadOne(ctx context.Context, env *domain.Env, company, id string, onlyFields []string, convert query.DocConverter) (map[string]any, error) {
	req := &query.Request{ID: query.StringList{id}, OnlyFields: onlyFields}
	plan, err := query.Build(env.DB.D, Schema, req, nil, query.Options{})
	if err != nil {
		return nil, err
	}
	plan.WhereIn("company", domain.Visible(company))
	plan.ConvertDocs(convert)
	res, err := plan.Run(ctx, env.DB, "models", company, nil)
	if err != nil {
		return nil, err
	}
	if len(res.Items) == 0 {
		return nil, apierr.InvalidModelID(id)
	}
	return res.Items[0], nil
}

// ReadByTask reads the last output model of a company task (see ReadOne).
func ReadByTask(ctx context.Context, env *domain.Env, company, taskID string, onlyFields []string, convert query.DocConverter) (map[string]any, error) {
	t, err := env.DB.Tasks().Get(ctx, env.DB.Read(), taskID, company)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidTaskID(taskID))
	}
	if len(t.Models.Output) == 0 || t.Models.Output[len(t.Models.Output)-1] == nil {
		return nil, apierr.MissingTaskField("models.output")
	}
	return ReadOne(ctx, env, company, t.Models.Output[len(t.Models.Output)-1].Model, onlyFields, convert)
}

// Frameworks lists the distinct frameworks of own and public models,
// optionally of some projects and their subprojects, sorted.
func Frameworks(ctx context.Context, env *domain.Env, company string, projects []string) ([]string, error) {
	var ids []string
	if len(projects) > 0 {
		tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), domain.Visible(company)...)
		if err != nil {
			return nil, err
		}
		ids = tree.WithDescendants(projects)
	}
	return env.DB.ModelFrameworks(ctx, domain.Visible(company), ids)
}
