package organization

import (
	"context"
	"slices"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	orgdom "github.com/trove-ml/trove/internal/organization"
	"github.com/trove-ml/trove/internal/rpc"
)

// projectUsagesRequest is organization.get_project_usages (2.34), the
// web app's Workloads view.
type projectUsagesRequest struct {
	Projects           []string `json:"projects" required:"true"`
	FromDate           string   `json:"from_date" required:"true"`
	ToDate             string   `json:"to_date" required:"true"`
	IncludeDevelopment bool     `json:"include_development"`
	BreakdownKeys      []string `json:"breakdown_keys"`
	UsageFields        []string `json:"usage_fields"`
}

func (r *projectUsagesRequest) Validate() error {
	if len(r.Projects) == 0 {
		return apierr.Validation("projects", "at least one project id is required")
	}
	for _, p := range r.Projects {
		if p == "" {
			return apierr.Validation("projects", "project ids cannot be empty")
		}
	}
	for _, k := range r.BreakdownKeys {
		if !slices.Contains(orgdom.UsageBreakdownKeys, k) {
			return apierr.Validation("breakdown_keys", "must be one of %s, got %q", strings.Join(orgdom.UsageBreakdownKeys, ", "), k)
		}
	}
	for _, f := range r.UsageFields {
		if !slices.Contains(orgdom.UsageFields, f) {
			return apierr.Validation("usage_fields", "must be one of %s, got %q", strings.Join(orgdom.UsageFields, ", "), f)
		}
	}
	return nil
}

// getProjectUsages answers {projects, users, queues} (the breakdowns
// asked), each {total: [...], series: [...]}.
func (s *service) getProjectUsages(ctx context.Context, c *rpc.Call, req *projectUsagesRequest) (*map[string]any, error) {
	from, err := orgdom.ParseUsageDate("from_date", req.FromDate)
	if err != nil {
		return nil, err
	}
	to, err := orgdom.ParseUsageDate("to_date", req.ToDate)
	if err != nil {
		return nil, err
	}
	res, err := orgdom.ProjectUsages(ctx, &s.d.Env, orgdom.UsageInput{Company: c.Company(), Projects: req.Projects, From: from, To: to,
		IncludeDevelopment: req.IncludeDevelopment, Breakdown: dedupe(req.BreakdownKeys), Fields: dedupe(req.UsageFields)})
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for key, u := range res {
		totals := make([]map[string]any, len(u.Total))
		for i, t := range u.Total {
			m := map[string]any{"name": t.Name, "id": t.ID}
			for f, v := range t.Values {
				m[f] = v
			}
			for _, a := range t.Artificial {
				m[a+"_artificial_weights"] = true
			}
			totals[i] = m
		}
		series := make([]map[string]any, len(u.Series))
		for i, se := range u.Series {
			m := map[string]any{"name": se.Name, "id": se.ID, "dates": se.Dates}
			for f, v := range se.Values {
				m[f] = v
			}
			for _, a := range se.Artificial {
				m[a+"_artificial_weights"] = true
			}
			series[i] = m
		}
		out[key] = map[string]any{"total": totals, "series": series}
	}
	return &out, nil
}

func dedupe(list []string) []string {
	var out []string
	for _, s := range list {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
