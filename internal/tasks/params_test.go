package tasks_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

func str(s string) *string { return &s }

func param(sec, name, value string) *tasks.ParamInput {
	return &tasks.ParamInput{Section: sec, Name: name, Value: str(value)}
}

func edit(id string, force bool) tasks.TaskEdit {
	return tasks.TaskEdit{Company: "c1", User: "u2", Task: id, Force: force}
}

// withParams gives a task two sections of hyperparameters.
func withParams(t *store.Task) {
	t.Hyperparams = map[string]map[string]*store.ParamItem{
		"Args":       {"lr": {Section: "Args", Name: "lr", Value: "0.1"}, "epochs": {Section: "Args", Name: "epochs", Value: "3"}},
		"properties": {"owner": {Section: "properties", Name: "owner", Value: "ann"}},
	}
}

// TestEditHyperParams: the replace modes, the status lock and force, and
// user properties editable in any status without touching last_update.
func TestEditHyperParams(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "a", tasks.Created, withParams)
		if err := tasks.EditHyperParams(ctx, d, edit("a", false), []*tasks.ParamInput{param("Args", "lr", "0.2")}, ""); err != nil {
			t.Fatal(err)
		}
		got := getTask(t, d, "a")
		if got.Hyperparams["Args"]["lr"].Value != "0.2" || got.Hyperparams["Args"]["epochs"] == nil || !got.LastUpdate.Equal(clockStart) {
			t.Fatalf("merge edit stored %+v, last_update %v", got.Hyperparams, got.LastUpdate)
		}
		if err := tasks.EditHyperParams(ctx, d, edit("a", false), []*tasks.ParamInput{param("Args", "bs", "8")}, tasks.ReplaceSection); err != nil {
			t.Fatal(err)
		}
		got = getTask(t, d, "a")
		if len(got.Hyperparams["Args"]) != 1 || got.Hyperparams["Args"]["bs"] == nil || got.Hyperparams["properties"] == nil {
			t.Fatalf("section replace stored %+v", got.Hyperparams)
		}
		if err := tasks.EditHyperParams(ctx, d, edit("a", false), []*tasks.ParamInput{param("New", "x", "1")}, tasks.ReplaceAll); err != nil {
			t.Fatal(err)
		}
		if got = getTask(t, d, "a"); len(got.Hyperparams) != 1 || got.Hyperparams["New"]["x"].Value != "1" {
			t.Fatalf("replace all stored %+v", got.Hyperparams)
		}

		putTask(t, d, "run", tasks.InProgress)
		if err := tasks.EditHyperParams(ctx, d, edit("run", false), []*tasks.ParamInput{param("Args", "lr", "1")}, ""); !apierr.Is(err, 400, 110) {
			t.Fatalf("edit of a running task: %v", err)
		}
		if err := tasks.EditHyperParams(ctx, d, edit("run", true), []*tasks.ParamInput{param("Args", "lr", "1")}, ""); err != nil {
			t.Fatalf("forced edit of a running task: %v", err)
		}

		done := putTask(t, d, "done", tasks.Completed)
		if err := tasks.EditHyperParams(ctx, d, edit("done", false), []*tasks.ParamInput{param("Properties", "k", "v")}, ""); err != nil {
			t.Fatalf("properties edit of a completed task: %v", err)
		}
		got = getTask(t, d, "done")
		if got.Hyperparams["properties"]["k"].Value != "v" || !got.LastUpdate.Equal(done.LastUpdate.Time) || !got.LastChange.Equal(clockStart) {
			t.Fatalf("properties edit stored %+v, last_update %v", got.Hyperparams, got.LastUpdate)
		}
		mixed := []*tasks.ParamInput{param("properties", "k", "w"), param("Args", "lr", "1")}
		if err := tasks.EditHyperParams(ctx, d, edit("done", true), mixed, ""); !apierr.Is(err, 400, 110) {
			t.Fatalf("mixed edit of a completed task: %v", err)
		}
	})
}

// TestDeleteHyperParams: single parameters (an emptied section goes),
// whole sections, and properties in any status.
func TestDeleteHyperParams(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "a", tasks.Created, withParams)
		if err := tasks.DeleteHyperParams(ctx, d, edit("a", false), []tasks.ParamKey{{Section: "Args", Name: "lr"}}); err != nil {
			t.Fatal(err)
		}
		if got := getTask(t, d, "a"); got.Hyperparams["Args"]["lr"] != nil || got.Hyperparams["Args"]["epochs"] == nil {
			t.Fatalf("parameter delete stored %+v", got.Hyperparams)
		}
		if err := tasks.DeleteHyperParams(ctx, d, edit("a", false), []tasks.ParamKey{{Section: "Args", Name: "epochs"}}); err != nil {
			t.Fatal(err)
		}
		if got := getTask(t, d, "a"); got.Hyperparams["Args"] != nil {
			t.Fatalf("emptied section kept: %+v", got.Hyperparams)
		}

		putTask(t, d, "pub", tasks.Published, withParams)
		if err := tasks.DeleteHyperParams(ctx, d, edit("pub", true), []tasks.ParamKey{{Section: "Args"}}); !apierr.Is(err, 400, 110) {
			t.Fatalf("delete on a published task: %v", err)
		}
		if err := tasks.DeleteHyperParams(ctx, d, edit("pub", false), []tasks.ParamKey{{Section: "PROPERTIES"}}); err != nil {
			t.Fatalf("properties delete on a published task: %v", err)
		}
		if got := getTask(t, d, "pub"); got.Hyperparams["properties"] != nil || got.Hyperparams["Args"] == nil {
			t.Fatalf("section delete stored %+v", got.Hyperparams)
		}
	})
}

// TestConfiguration: edit with and without replace, delete, and the
// status lock for both.
func TestConfiguration(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "a", tasks.Created)
		items := []*tasks.ConfigInput{{Name: "one", Value: str("1")}, {Name: "two", Value: str("2"), Type: str("yaml")}}
		if err := tasks.EditConfiguration(ctx, d, edit("a", false), items, false); err != nil {
			t.Fatal(err)
		}
		got := getTask(t, d, "a")
		if len(got.Configuration) != 2 || *got.Configuration["two"].Type != "yaml" || !got.LastUpdate.Equal(clockStart) {
			t.Fatalf("edit stored %+v", got.Configuration)
		}
		if err := tasks.EditConfiguration(ctx, d, edit("a", false), []*tasks.ConfigInput{{Name: "three", Value: str("3")}}, true); err != nil {
			t.Fatal(err)
		}
		if got = getTask(t, d, "a"); len(got.Configuration) != 1 || got.Configuration["three"].Value != "3" {
			t.Fatalf("replace stored %+v", got.Configuration)
		}
		if err := tasks.DeleteConfiguration(ctx, d, edit("a", false), []string{"three", "unknown"}); err != nil {
			t.Fatal(err)
		}
		if got = getTask(t, d, "a"); len(got.Configuration) != 0 {
			t.Fatalf("delete kept %+v", got.Configuration)
		}

		putTask(t, d, "run", tasks.InProgress)
		if err := tasks.EditConfiguration(ctx, d, edit("run", false), items, false); !apierr.Is(err, 400, 110) {
			t.Fatalf("edit of a running task: %v", err)
		}
		if err := tasks.DeleteConfiguration(ctx, d, edit("run", false), []string{"one"}); !apierr.Is(err, 400, 110) {
			t.Fatalf("delete on a running task: %v", err)
		}
		if err := tasks.EditConfiguration(ctx, d, edit("run", true), items, false); err != nil {
			t.Fatalf("forced edit of a running task: %v", err)
		}
		if err := tasks.DeleteConfiguration(ctx, d, edit("unknown", true), []string{"one"}); !apierr.Is(err, 400, 101) {
			t.Fatalf("delete on an unknown task: %v", err)
		}
	})
}
