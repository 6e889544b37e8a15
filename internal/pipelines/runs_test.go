package pipelines_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/domain/domaintest"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/pipelines"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

var ctx = context.Background()

func TestRunsToDeleteLeavesOne(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		add := func(project, typ string) string {
			t.Helper()
			tk := &store.Task{ID: ids.New(), Company: "c1", User: "u1", Name: "run", Type: typ, Status: tasks.Created, Project: project}
			tk.Normalize()
			if err := tasks.Create(ctx, env, "c1", tk, tasks.RefChecks{}); err != nil {
				t.Fatal(err)
			}
			return tk.ID
		}
		a, b, step := add("p1", "controller"), add("p1", "controller"), add("p1", "training")
		_, err := pipelines.RunsToDelete(ctx, env, "c1", "p1", []string{a, b})
		domaintest.WantError(t, err, 400, 160)
		got, err := pipelines.RunsToDelete(ctx, env, "c1", "p1", []string{a, step})
		if err != nil || len(got) != 1 || got[0] != a {
			t.Fatalf("runs to delete: %v %v", got, err)
		}
		// Another company has no runs there: nothing may be left, so refused.
		_, err = pipelines.RunsToDelete(ctx, env, "c2", "p1", []string{a})
		domaintest.WantError(t, err, 400, 160)
		if _, err := pipelines.DeleteRun(ctx, env, "c1", "u1", a); err != nil {
			t.Fatal(err)
		}
		if _, err := tasks.Get(ctx, env, "c1", a); err == nil {
			t.Fatal("run kept")
		}
	})
}
