package store_test

import (
	"reflect"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// The dialect methods are checked by running what they build.

func TestDialectJSONSetAndRemove(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		tk := newTask("t1", "c1", "n")
		tk.Project = "p1"
		insertTasks(t, db, tk)
		d := db.D
		mustTx(t, db, func(q store.Querier) error {
			_, err := q.ExecContext(ctx, "UPDATE tasks SET doc = "+d.JSONSetText("doc")+" WHERE id = ?",
				d.JSONPathArg([]string{"comment"}), "it's \"quoted\"", "t1")
			if err != nil {
				return err
			}
			_, err = q.ExecContext(ctx, "UPDATE tasks SET doc = "+d.JSONRemove("doc")+" WHERE id = ?",
				d.JSONPathArg([]string{"project"}), "t1")
			return err
		})
		got, err := db.Tasks().Get(ctx, db.Read(), "t1")
		if err != nil {
			t.Fatal(err)
		}
		if got.Comment == nil || *got.Comment != "it's \"quoted\"" || got.Project != "" {
			t.Fatalf("comment %v, project %q", got.Comment, got.Project)
		}
	})
}

func TestTouchProject(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		mustTx(t, db, func(q store.Querier) error {
			return db.Projects().Insert(ctx, q, &store.Project{ID: "p1", Company: "c1", Name: "p", Basename: "p", User: "u1",
				Created: at(0), LastUpdate: at(0), Tags: []string{}, SystemTags: []string{}, Path: []string{}})
		})
		mustTx(t, db, func(q store.Querier) error { return db.TouchProject(ctx, q, "p1", at(5000)) })
		p, err := db.Projects().Get(ctx, db.Read(), "p1")
		if err != nil || !p.LastUpdate.Equal(at(5000).Time) {
			t.Fatalf("document last_update %v, %v", p, err)
		}
		ids, err := store.IDs(ctx, db.Read(), "SELECT id FROM projects WHERE last_update = ?", at(5000).Millis())
		if err != nil || !reflect.DeepEqual(ids, []string{"p1"}) {
			t.Fatalf("column last_update: %v, %v", ids, err)
		}
	})
}

func TestTasksUsingModel(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		uses := func(id string, models ...string) *store.Task {
			tk := newTask(id, "c1", id)
			for _, m := range models {
				tk.Models.Input = append(tk.Models.Input, &store.TaskModelItem{Name: "in", Model: m})
			}
			return tk
		}
		insertTasks(t, db, uses("a", "m1"), uses("b", "m2", "m1"), uses("c", "m2"), uses("d"))
		// The index follows updates: c now uses m1, b no longer does.
		mustTx(t, db, func(q store.Querier) error {
			if err := db.Tasks().Update(ctx, q, uses("c", "m1")); err != nil {
				return err
			}
			return db.Tasks().Update(ctx, q, uses("b", "m2"))
		})
		for _, c := range []struct {
			model, except string
			want          []string
		}{
			{"m1", "", []string{"a", "c"}},
			{"m1", "a", []string{"c"}},
			{"m2", "", []string{"b"}},
			{"m3", "", nil},
		} {
			ids, err := db.TaskIDsUsingModel(ctx, db.Read(), c.model, c.except)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(sorted(ids), c.want) {
				t.Errorf("tasks using %s except %q: %v, want %v", c.model, c.except, ids, c.want)
			}
		}
		var locked []*store.Task
		mustTx(t, db, func(q store.Querier) error {
			var err error
			locked, err = db.TasksUsingModel(ctx, q, "m1")
			return err
		})
		if !reflect.DeepEqual(sorted(taskIDs(locked)), []string{"a", "c"}) {
			t.Fatalf("tasks using m1 (for update): %v", taskIDs(locked))
		}
	})
}

func TestArrayObjHas(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		tk := newTask("t1", "c1", "n")
		tk.Models.Output = []*store.TaskModelItem{{Name: "best", Model: "m9"}}
		insertTasks(t, db, tk, newTask("t2", "c1", "n"))
		d := db.D
		for _, c := range []struct {
			member, value string
			want          []string
		}{
			{"model", "m9", []string{"t1"}},
			{"name", "best", []string{"t1"}},
			{"model", "best", nil},
		} {
			ids, err := store.IDs(ctx, db.Read(), "SELECT id FROM tasks WHERE "+d.ArrayObjHas("doc"),
				d.JSONPathArg([]string{"models", "output"}), d.JSONPathArg([]string{c.member}), c.value)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ids, c.want) {
				t.Errorf("output %s = %s: %v, want %v", c.member, c.value, ids, c.want)
			}
		}
	})
}

// sorted returns a sorted copy (nil for none).
func sorted(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

// The input-model index is kept through the models_sig fingerprint
// (migration 0102): an update that leaves the inputs alone keeps the
// rows, one that changes them moves them, and a row without a fingerprint
// (written before 0102) is rebuilt.
func TestTaskInputModelsFollowFingerprint(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		uses := func(id, name string, models ...string) *store.Task {
			tk := newTask(id, "c1", name)
			for _, m := range models {
				tk.Models.Input = append(tk.Models.Input, &store.TaskModelItem{Name: "in", Model: m})
			}
			return tk
		}
		using := func(model string) []string {
			t.Helper()
			ids, err := db.TaskIDsUsingModel(ctx, db.Read(), model, "")
			if err != nil {
				t.Fatal(err)
			}
			return sorted(ids)
		}
		insertTasks(t, db, uses("a", "a", "m1"), uses("b", "b", "m1", "m2"), uses("c", "c"))
		steps := []struct {
			name   string
			change func(q store.Querier) error
			m1, m2 []string
		}{
			{"rename only", func(q store.Querier) error { return db.Tasks().Update(ctx, q, uses("a", "renamed", "m1")) },
				[]string{"a", "b"}, []string{"b"}},
			{"inputs cleared", func(q store.Querier) error { return db.Tasks().Update(ctx, q, uses("b", "b")) },
				[]string{"a"}, nil},
			{"inputs added", func(q store.Querier) error { return db.Tasks().Update(ctx, q, uses("c", "c", "m2")) },
				[]string{"a"}, []string{"c"}},
			{"row without a fingerprint", func(q store.Querier) error {
				// a row from before 0102, its inputs changed by the same update
				if _, err := q.ExecContext(ctx, "UPDATE tasks SET models_sig = NULL WHERE id = 'a'"); err != nil {
					return err
				}
				return db.Tasks().Update(ctx, q, uses("a", "renamed", "m2"))
			}, nil, []string{"a", "c"}},
		}
		for _, s := range steps {
			mustTx(t, db, s.change)
			if got := using("m1"); !reflect.DeepEqual(got, s.m1) {
				t.Errorf("%s: tasks using m1 %v, want %v", s.name, got, s.m1)
			}
			if got := using("m2"); !reflect.DeepEqual(got, s.m2) {
				t.Errorf("%s: tasks using m2 %v, want %v", s.name, got, s.m2)
			}
		}
	})
}
