package store_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

func TestTableInsertGetUpdate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		tk := newTask("t1", "c1", "first")
		tk.Tags = []string{"a", "b"}
		tk.Hyperparams = map[string]map[string]*store.ParamItem{"Args": {"lr": {Section: "Args", Name: "lr", Value: "0.1"}}}
		insertTasks(t, db, tk)

		got, err := db.Tasks().Get(ctx, db.Read(), "t1")
		if err != nil {
			t.Fatalf("get: %v", err)
		}
		if !reflect.DeepEqual(got, tk) {
			t.Fatalf("read back %+v, wrote %+v", got, tk)
		}

		got.Name, got.Status = "renamed", "in_progress"
		mustTx(t, db, func(q store.Querier) error { return db.Tasks().Update(ctx, q, got) })
		// The document and the columns both changed.
		again, err := db.Tasks().Get(ctx, db.Read(), "t1")
		if err != nil || again.Name != "renamed" {
			t.Fatalf("after update: %+v, %v", again, err)
		}
		ids, err := store.IDs(ctx, db.Read(), "SELECT id FROM tasks WHERE name = ? AND status = ?", "renamed", "in_progress")
		if err != nil || len(ids) != 1 {
			t.Fatalf("columns after update: %v, %v", ids, err)
		}
		raw, err := db.Tasks().GetRaw(ctx, db.Read(), "t1", "c1")
		if err != nil || len(raw) == 0 {
			t.Fatalf("get raw: %q, %v", raw, err)
		}
	})
}

func TestTableGetScopesByCompany(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		insertTasks(t, db, newTask("t1", "c1", "one"), newTask("pub", "", "public"))
		for _, c := range []struct {
			id        string
			companies []string
			found     bool
		}{
			{"t1", nil, true},
			{"t1", []string{"c1"}, true},
			{"t1", []string{"c2"}, false},
			{"t1", []string{"c2", ""}, false},
			{"pub", []string{"c2", ""}, true},
			{"missing", nil, false},
		} {
			_, err := db.Tasks().Get(ctx, db.Read(), c.id, c.companies...)
			if c.found && err != nil {
				t.Errorf("get %s in %v: %v", c.id, c.companies, err)
			}
			if !c.found && !errors.Is(err, store.ErrNotFound) {
				t.Errorf("get %s in %v: want ErrNotFound, got %v", c.id, c.companies, err)
			}
			_, err = db.Tasks().GetRaw(ctx, db.Read(), c.id, c.companies...)
			if !c.found && !errors.Is(err, store.ErrNotFound) {
				t.Errorf("get raw %s in %v: want ErrNotFound, got %v", c.id, c.companies, err)
			}
		}
	})
}

func TestTableSelectAndDelete(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		insertTasks(t, db, newTask("a", "c1", "x"), newTask("b", "c1", "y"), newTask("c", "c2", "x"))
		got, err := db.Tasks().Select(ctx, db.Read(), "company = ? ORDER BY id DESC", "c1")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].ID != "b" || got[1].ID != "a" {
			t.Fatalf("select: %v", taskIDs(got))
		}
		var removed bool
		mustTx(t, db, func(q store.Querier) error {
			var err error
			removed, err = db.Tasks().Delete(ctx, q, "a")
			return err
		})
		if !removed {
			t.Fatal("delete reported nothing removed")
		}
		mustTx(t, db, func(q store.Querier) error {
			var err error
			removed, err = db.Tasks().Delete(ctx, q, "a")
			return err
		})
		if removed {
			t.Fatal("second delete reported a removal")
		}
		if _, err := db.Tasks().Get(ctx, db.Read(), "a"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("deleted task: %v", err)
		}
	})
}

func taskIDs(ts []*store.Task) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

func TestTableDuplicates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		p := func(id, name string) *store.Project {
			return &store.Project{ID: id, Company: "c1", Name: name, Basename: name, User: "u1", Created: at(0), LastUpdate: at(0)}
		}
		mustTx(t, db, func(q store.Querier) error {
			if err := db.Projects().Insert(ctx, q, p("p1", "one")); err != nil {
				return err
			}
			return db.Projects().Insert(ctx, q, p("p2", "two"))
		})
		for _, c := range []struct {
			name  string
			write func(q store.Querier) error
		}{
			{"same id", func(q store.Querier) error { return db.Projects().Insert(ctx, q, p("p1", "three")) }},
			{"same unique name", func(q store.Querier) error { return db.Projects().Insert(ctx, q, p("p3", "one")) }},
			{"update to a taken name", func(q store.Querier) error { return db.Projects().Update(ctx, q, p("p2", "one")) }},
			{"conditional update to a taken name", func(q store.Querier) error {
				_, err := db.Projects().UpdateIf(ctx, q, p("p2", "one"), "1 = 1")
				return err
			}},
		} {
			err := db.Tx(ctx, c.write)
			if !errors.Is(err, store.ErrDuplicate) {
				t.Errorf("%s: want ErrDuplicate, got %v", c.name, err)
			}
		}
	})
}

func TestTableUpdateIf(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		tk := newTask("t1", "c1", "n")
		insertTasks(t, db, tk)
		tk.Status = "queued"
		for _, c := range []struct {
			cond    string
			arg     string
			written bool
		}{
			{"status = ?", "in_progress", false}, // the stored status is "created"
			{"status = ?", "created", true},
			{"status = ?", "created", false}, // now "queued"
		} {
			var ok bool
			mustTx(t, db, func(q store.Querier) error {
				var err error
				ok, err = db.Tasks().UpdateIf(ctx, q, tk, c.cond, c.arg)
				return err
			})
			if ok != c.written {
				t.Errorf("UpdateIf(%s %s) wrote %v, want %v", c.cond, c.arg, ok, c.written)
			}
		}
	})
}
