package tasks_test

import (
	"slices"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

func setName(name string) tasks.Apply {
	return func(t *store.Task, _ jsonx.Time) map[string]any { t.Name = name; return map[string]any{"name": name} }
}

func setScript(entry string) tasks.Apply {
	return func(t *store.Task, _ jsonx.Time) map[string]any {
		t.Script.EntryPoint = entry
		return map[string]any{"script.entry_point": entry}
	}
}

// TestEditFields: the status lock, and last_update bumped only when more
// than user fields change.
func TestEditFields(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		before := putTask(t, d, "e", tasks.Created).LastUpdate
		putTask(t, d, "running", tasks.InProgress)
		edit := func(id string, force bool, apply tasks.Apply) (*domain.Update, error) {
			return tasks.EditFields(ctx, d, tasks.EditFieldsRequest{Company: "c1", User: "u2", Task: id, Force: force, Apply: apply})
		}
		up, err := edit("e", false, setName("renamed"))
		if err != nil || up.Updated != 1 || up.Fields["last_update"] != nil {
			t.Fatalf("name edit: %+v %v", up, err)
		}
		if got := getTask(t, d, "e"); got.Name != "renamed" || !got.LastUpdate.Equal(before.Time) || got.LastChangedBy != "u2" {
			t.Fatalf("name edit stored %+v", got)
		}
		if up, err = edit("e", false, setScript("run.py")); err != nil || up.Fields["last_update"] == nil {
			t.Fatalf("script edit: %+v %v", up, err)
		}
		if up, err = edit("e", false, func(*store.Task, jsonx.Time) map[string]any { return map[string]any{} }); err != nil || up.Updated != 0 {
			t.Fatalf("empty edit: %+v %v", up, err)
		}
		if _, err := edit("running", false, setName("x")); !apierr.Is(err, 400, 110) {
			t.Fatalf("edit of a running task: %v", err)
		}
		if _, err := edit("running", true, setName("x")); err != nil {
			t.Fatalf("forced edit: %v", err)
		}
	})
}

// TestUpdateFields: one unknown task fails the whole update; tasks that
// change nothing count 0.
func TestUpdateFields(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "a", tasks.Published)
		putTask(t, d, "b", tasks.Created)
		nothing := func(*store.Task, jsonx.Time) map[string]any { return map[string]any{} }
		_, err := tasks.UpdateFields(ctx, d, "c1", "u2", []tasks.UpdateFieldsRequest{
			{Task: "a", Apply: setName("A")}, {Task: "x", Apply: nothing}, {Task: "y", Apply: nothing}}, false)
		if e := apierr.As(err); e == nil || e.Subcode != 101 || !slices.Equal(e.Data["id"].([]string), []string{"x", "y"}) {
			t.Fatalf("unknown tasks: %v", err)
		}
		if getTask(t, d, "a").Name != "a" {
			t.Fatal("a failed update wrote")
		}
		d.Now = func() time.Time { return clockStart.Add(time.Minute) }
		res, err := tasks.UpdateFields(ctx, d, "c1", "u2", []tasks.UpdateFieldsRequest{
			{Task: "a", Apply: setName("A")}, {Task: "b", Apply: nothing}}, true)
		if err != nil || res[0].Updated != 1 || res[1].Updated != 0 {
			t.Fatalf("update: %v %v", res, err)
		}
		if got := getTask(t, d, "a"); got.Name != "A" || !got.LastChange.Equal(d.Time().Time) {
			t.Fatalf("stored %+v", got)
		}
	})
}
