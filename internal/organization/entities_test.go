package organization_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/domain/domaintest"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/organization"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

var ctx = context.Background()

func TestCountEntities(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		team, err := projects.Create(ctx, env, projects.CreateInput{Company: "c1", User: "u1", Name: "Team"})
		if err != nil {
			t.Fatal(err)
		}
		err = env.DB.Tx(ctx, func(q store.Querier) error {
			folder, err := projects.EnsureReportsFolder(ctx, env, q, "c1", "u1", "Team")
			if err != nil {
				return err
			}
			for _, tk := range []*store.Task{
				{Name: "report", Type: "report", Project: folder.ID, SystemTags: []string{"hidden", "reports"}},
				{Name: "hidden", Type: "training", SystemTags: []string{"hidden"}},
				{Name: "plain", Type: "training", Project: team, User: "u2"},
			} {
				tk.ID, tk.Company, tk.Status = ids.New(), "c1", tasks.Created
				if tk.User == "" {
					tk.User = "u1"
				}
				tk.Normalize()
				if err := tasks.Insert(ctx, env, q, "c1", tk, tasks.RefChecks{}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		q := map[string]json.RawMessage{"tasks": json.RawMessage(`{}`), "projects": json.RawMessage(`{}`),
			"reports": json.RawMessage(`{"project": ["` + team + `"]}`)}
		res, err := organization.CountEntities(ctx, env, organization.CountInput{Company: "c1", Queries: q, AllowPublic: true})
		got := counts(res)
		if err != nil || got["tasks"] != 1 || got["projects"] != 1 || got["reports"] != 1 {
			t.Fatalf("counts %v %v", got, err)
		}
		res, err = organization.CountEntities(ctx, env, organization.CountInput{Company: "c1", Queries: q, SearchHidden: true, ActiveUsers: []string{"u1"}})
		got = counts(res)
		if err != nil || got["tasks"] != 2 || got["projects"] != 2 || got["reports"] != 1 {
			t.Fatalf("hidden, active users: %v %v", got, err)
		}
		res, err = organization.CountEntities(ctx, env, organization.CountInput{Company: "c2", Queries: q})
		got = counts(res)
		if err != nil || got["tasks"] != 0 || got["reports"] != 0 {
			t.Fatalf("other company: %v %v", got, err)
		}
	})
}

func counts(c *organization.Counts) map[string]int {
	if c == nil {
		return nil
	}
	return c.Counts
}
