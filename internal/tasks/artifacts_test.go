package tasks_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

func artifactModes(list []*store.Artifact) []string {
	out := []string{}
	for _, a := range list {
		out = append(out, a.Key+"/"+a.Mode)
	}
	return out
}

// TestArtifacts: without force only a created task takes artifacts, with
// force also a running one; (key, mode) replaces; delete is always forced.
func TestArtifacts(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "run", tasks.InProgress)
		arts := []*tasks.ArtifactInput{{Key: "b", Type: "csv", URI: str("s3://x/b")}, {Key: "a", Type: "csv", Mode: "input"}}
		if err := tasks.AddOrUpdateArtifacts(ctx, d, edit("run", false), arts); !apierr.Is(err, 400, 110) {
			t.Fatalf("artifacts without force on a running task: %v", err)
		}
		if err := tasks.AddOrUpdateArtifacts(ctx, d, edit("run", true), arts); err != nil {
			t.Fatalf("artifacts with force on a running task: %v", err)
		}
		got := getTask(t, d, "run")
		if m := artifactModes(got.Execution.Artifacts); len(m) != 2 || m[0] != "a/input" || m[1] != "b/output" {
			t.Fatalf("stored artifacts %v", m)
		}
		update := []*tasks.ArtifactInput{{Key: "b", Type: "json", Mode: "output"}, {Key: "b", Type: "csv", Mode: "input"}}
		if err := tasks.AddOrUpdateArtifacts(ctx, d, edit("run", true), update); err != nil {
			t.Fatal(err)
		}
		got = getTask(t, d, "run")
		if m := artifactModes(got.Execution.Artifacts); len(m) != 3 || got.Execution.Artifacts[2].Type != "json" {
			t.Fatalf("after update %v", m)
		}
		if err := tasks.DeleteArtifacts(ctx, d, edit("run", false), []tasks.ArtifactID{{Key: "b"}, {Key: "a", Mode: "input"}}); err != nil {
			t.Fatalf("delete on a running task: %v", err)
		}
		if m := artifactModes(getTask(t, d, "run").Execution.Artifacts); len(m) != 1 || m[0] != "b/input" {
			t.Fatalf("after delete %v", m)
		}

		putTask(t, d, "new", tasks.Created)
		if err := tasks.AddOrUpdateArtifacts(ctx, d, edit("new", false), arts); err != nil {
			t.Fatalf("artifacts on a created task: %v", err)
		}
		putTask(t, d, "done", tasks.Completed)
		if err := tasks.AddOrUpdateArtifacts(ctx, d, edit("done", true), arts); !apierr.Is(err, 400, 110) {
			t.Fatalf("artifacts on a completed task: %v", err)
		}
	})
}

// TestTaskModels: add replaces by name and type and raises
// last_iteration; delete drops by (name, type) without touching
// last_update.
func TestTaskModels(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "run", tasks.InProgress, func(t *store.Task) { t.LastIteration = 5 })
		it := int64(3)
		if err := tasks.AddOrUpdateModel(ctx, d, edit("run", false), tasks.TaskModel{Name: "m", Model: "m1", Type: tasks.ModelOutput, Iteration: &it}); err != nil {
			t.Fatal(err)
		}
		it = 9
		if err := tasks.AddOrUpdateModel(ctx, d, edit("run", false), tasks.TaskModel{Name: "m", Model: "m2", Type: tasks.ModelOutput, Iteration: &it}); err != nil {
			t.Fatal(err)
		}
		if err := tasks.AddOrUpdateModel(ctx, d, edit("run", false), tasks.TaskModel{Name: "m", Model: "in", Type: tasks.ModelInput}); err != nil {
			t.Fatal(err)
		}
		got := getTask(t, d, "run")
		if len(got.Models.Output) != 1 || got.Models.Output[0].Model != "m2" || len(got.Models.Input) != 1 || got.LastIteration != 9 {
			t.Fatalf("models %+v %+v, last_iteration %d", got.Models.Input, got.Models.Output, got.LastIteration)
		}

		before := putTask(t, d, "keep", tasks.Created, func(t *store.Task) {
			t.Models.Input = []*store.TaskModelItem{{Name: "m", Model: "i"}}
			t.Models.Output = []*store.TaskModelItem{{Name: "m", Model: "o"}, {Name: "n", Model: "o2"}}
		}).LastUpdate
		keys := []tasks.ModelKey{{Name: "m", Type: tasks.ModelOutput}, {Name: "unknown", Type: tasks.ModelInput}}
		if err := tasks.DeleteModels(ctx, d, edit("keep", false), keys); err != nil {
			t.Fatal(err)
		}
		got = getTask(t, d, "keep")
		if len(got.Models.Input) != 1 || len(got.Models.Output) != 1 || got.Models.Output[0].Name != "n" || !got.LastUpdate.Equal(before.Time) {
			t.Fatalf("after delete %+v %+v, last_update %v", got.Models.Input, got.Models.Output, got.LastUpdate)
		}
	})
}
