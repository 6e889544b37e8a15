package store_test

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// countRows reads the rows of a name table that some task holds, as
// "[key columns]" -> tasks, and fails on a count below 0.
func countRows(t *testing.T, db *store.DB, table string, cols string) map[string]int {
	t.Helper()
	var negative int
	if err := db.Read().QueryRowContext(ctx, "SELECT count(*) FROM "+table+" WHERE tasks < 0").Scan(&negative); err != nil || negative > 0 {
		t.Fatalf("%s: %d rows below 0 (%v)", table, negative, err)
	}
	rows, err := db.Read().QueryContext(ctx, "SELECT "+cols+", tasks FROM "+table+" WHERE tasks > 0")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		ncol := len(strings.Split(cols, ","))
		vals := make([]string, ncol)
		ptrs := make([]any, ncol+1)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		var n int
		ptrs[ncol] = &n
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprint(vals)] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// expectedNameRows counts the names of the stored task documents, as the
// three name tables should hold them.
func expectedNameRows(t *testing.T, db *store.DB) (names, values, metrics map[string]int) {
	t.Helper()
	tasks, err := db.Tasks().Select(ctx, db.Read(), "1 = 1")
	if err != nil {
		t.Fatal(err)
	}
	names, values, metrics = map[string]int{}, map[string]int{}, map[string]int{}
	for _, tk := range tasks {
		for sec, params := range tk.Hyperparams {
			for name, p := range params {
				names[fmt.Sprint([]string{tk.Company, tk.Project, sec, name})]++
				if p != nil {
					values[fmt.Sprint([]string{tk.Company, tk.Project, sec, name, p.Value})]++
				}
			}
		}
		for mh, vs := range tk.LastMetrics {
			for vh, v := range vs {
				if v != nil {
					metrics[fmt.Sprint([]string{tk.Company, tk.Project, mh, vh, v.Metric, v.Variant})]++
				}
			}
		}
	}
	return names, values, metrics
}

func checkNameTables(t *testing.T, db *store.DB, step string) {
	t.Helper()
	names, values, metrics := expectedNameRows(t, db)
	for _, c := range []struct {
		table, cols string
		want        map[string]int
	}{
		{"task_param_names", "company, project, section, name", names},
		{"task_param_values", "company, project, section, name, value", values},
		{"task_metric_variants", "company, project, metric_hash, variant_hash, metric, variant", metrics},
	} {
		if got := countRows(t, db, c.table, c.cols); !reflect.DeepEqual(got, c.want) {
			t.Fatalf("%s: %s holds\n%v\nthe documents give\n%v", step, c.table, got, c.want)
		}
	}
}

// randomNames gives tk a few hyper parameters and metrics out of small
// pools, so that tasks share some and not others.
func randomNames(r *rand.Rand, tk *store.Task) {
	tk.Hyperparams = map[string]map[string]*store.ParamItem{}
	for i := r.Intn(4); i > 0; i-- {
		sec, name := fmt.Sprintf("sec%d", r.Intn(2)), fmt.Sprintf("p%d", r.Intn(3))
		if tk.Hyperparams[sec] == nil {
			tk.Hyperparams[sec] = map[string]*store.ParamItem{}
		}
		tk.Hyperparams[sec][name] = &store.ParamItem{Section: sec, Name: name, Value: fmt.Sprint(r.Intn(3))}
	}
	tk.LastMetrics = map[string]map[string]*store.MetricSummary{}
	for i := r.Intn(4); i > 0; i-- {
		m, v := fmt.Sprintf("m%d", r.Intn(2)), fmt.Sprintf("v%d", r.Intn(3))
		if tk.LastMetrics["h"+m] == nil {
			tk.LastMetrics["h"+m] = map[string]*store.MetricSummary{}
		}
		tk.LastMetrics["h"+m]["h"+v] = &store.MetricSummary{Metric: m, Variant: v, Value: 1, Count: int64(r.Intn(5))}
	}
}

// The name tables follow every way a task is written: insert, update of
// its names, values, metrics or project, a project's disassociation, a
// merge (archived tasks stay) and delete, singly and in transactions of
// several.
func TestNameTablesFollowTaskWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := rand.New(rand.NewSource(7))
		projects := []string{"", "pA", "pB"}
		companies := []string{"c1", "c2", ""}
		live := map[string]*store.Task{}
		for step := 0; step < 120; step++ {
			ids := make([]string, 0, len(live))
			for id := range live {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			var op string
			mustTx(t, db, func(q store.Querier) error {
				switch k := r.Intn(12); {
				case k < 4 || len(ids) == 0:
					op = "insert"
					tk := newTask(fmt.Sprintf("t%03d", step), companies[r.Intn(len(companies))], "n")
					tk.Project = projects[r.Intn(len(projects))]
					randomNames(r, tk)
					if r.Intn(3) == 0 {
						tk.SystemTags = []string{store.ArchivedTag}
					}
					live[tk.ID] = tk
					return db.Tasks().Insert(ctx, q, tk)
				case k < 7:
					op = "update names"
					tk := live[ids[r.Intn(len(ids))]]
					switch r.Intn(4) {
					case 0, 1:
						randomNames(r, tk)
					case 2:
						// A row as written before migration 0096 has no
						// signatures: the triggers must do their full work.
						if _, err := q.ExecContext(ctx, "UPDATE tasks SET params_sig = NULL, metrics_sig = NULL WHERE id = ?", tk.ID); err != nil {
							return err
						}
						randomNames(r, tk)
					default:
						for _, vs := range tk.LastMetrics {
							for _, v := range vs {
								v.Count++ // a value change only: no name moves
							}
						}
						// A metric renamed under the same hashes moves a name.
						for _, vs := range tk.LastMetrics {
							for _, v := range vs {
								if r.Intn(3) == 0 {
									v.Metric += "x"
								}
							}
						}
					}
					return db.Tasks().Update(ctx, q, tk)
				case k < 8:
					op = "move"
					tk := live[ids[r.Intn(len(ids))]]
					tk.Project = projects[r.Intn(len(projects))]
					return db.Tasks().Update(ctx, q, tk)
				case k < 9:
					op = "disassociate"
					p := projects[1+r.Intn(2)]
					for _, tk := range live {
						if tk.Project == p {
							tk.Project = ""
						}
					}
					_, err := db.DisassociateProject(ctx, q, "tasks", []string{p})
					return err
				case k >= 10:
					op = "merge"
					// From the project of a task (archived ones stay).
					src, dst := live[ids[r.Intn(len(ids))]].Project, projects[r.Intn(3)]
					if src == "" {
						src = projects[1+r.Intn(2)]
					}
					if src == dst {
						dst = ""
					}
					scope := companies[:1+r.Intn(len(companies))]
					for _, tk := range live {
						if tk.Project == src && slices.Contains(scope, tk.Company) && !slices.Contains(tk.SystemTags, store.ArchivedTag) {
							tk.Project = dst
						}
					}
					_, err := db.MoveActiveContents(ctx, q, "tasks", scope, src, dst)
					return err
				default:
					op = "delete"
					n := 1 + r.Intn(3)
					var gone []string
					for _, id := range ids[:min(n, len(ids))] {
						gone = append(gone, id)
						delete(live, id)
					}
					_, err := db.DeleteTasks(ctx, q, gone)
					return err
				}
			})
			checkNameTables(t, db, fmt.Sprintf("step %d (%s)", step, op))
		}
	})
}

// The reads select by company and project (” rows are the tasks without
// a project) and give each name once.
func TestNameTableReads(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		mk := func(id, company, project, value string) *store.Task {
			tk := newTask(id, company, "n")
			tk.Project = project
			tk.Hyperparams = map[string]map[string]*store.ParamItem{"Args": {"lr": {Section: "Args", Name: "lr", Value: value}}}
			tk.LastMetrics = map[string]map[string]*store.MetricSummary{"hm": {"hv": {Metric: "loss", Variant: id}}}
			return tk
		}
		insertTasks(t, db, mk("a", "c1", "p1", "0.1"), mk("b", "c1", "p2", "0.2"), mk("c", "c1", "", "0.1"),
			mk("d", "", "p1", "0.3"), mk("e", "c2", "p1", "0.4"))
		scopes := []struct {
			name   string
			scan   store.DocScan
			values []string
			vars   []string
		}{
			{"company, all projects", store.DocScan{Companies: []string{"c1"}, AllProjects: true}, []string{"0.1", "0.2"}, []string{"a", "b", "c"}},
			{"with public", store.DocScan{Companies: []string{"c1", ""}, AllProjects: true}, []string{"0.1", "0.2", "0.3"}, []string{"a", "b", "c", "d"}},
			{"one project", store.DocScan{Companies: []string{"c1", ""}, Projects: []string{"p1"}}, []string{"0.1", "0.3"}, []string{"a", "d"}},
			{"no project", store.DocScan{Companies: []string{"c1"}, NoProject: true}, []string{"0.1"}, []string{"c"}},
		}
		for _, s := range scopes {
			names, err := db.TaskParamNames(ctx, s.scan)
			if err != nil || !reflect.DeepEqual(names, []store.ParamName{{Section: "Args", Name: "lr"}}) {
				t.Errorf("%s: names %v, %v", s.name, names, err)
			}
			values, err := db.TaskParamValues(ctx, s.scan, "Args", "lr")
			sort.Strings(values)
			if err != nil || !reflect.DeepEqual(values, s.values) {
				t.Errorf("%s: values %v, %v; want %v", s.name, values, err, s.values)
			}
			if other, err := db.TaskParamValues(ctx, s.scan, "Args", "momentum"); err != nil || len(other) != 0 {
				t.Errorf("%s: values of an unknown name %v, %v", s.name, other, err)
			}
			mv, err := db.TaskMetricVariants(ctx, s.scan)
			if err != nil {
				t.Fatal(err)
			}
			var vars []string
			for _, m := range mv {
				if m.Metric != "loss" || m.MetricHash != "hm" || m.VariantHash != "hv" {
					t.Errorf("%s: pair %+v", s.name, m)
				}
				vars = append(vars, m.Variant)
			}
			sort.Strings(vars)
			if !reflect.DeepEqual(vars, s.vars) {
				t.Errorf("%s: variants %v, want %v", s.name, vars, s.vars)
			}
		}
	})
}

// undoMigration0075 removes what migration 0075 made (and the views of
// migration 0097 over it), as if the store came from the version before it.
var undoMigration0075 = map[string][]string{
	"sqlite": {"DROP VIEW task_param_name_rows", "DROP VIEW task_param_value_rows", "DROP VIEW task_metric_variant_rows",
		"DROP TRIGGER tasks_params_insert", "DROP TRIGGER tasks_params_update", "DROP TRIGGER tasks_params_delete",
		"DROP TRIGGER tasks_metrics_insert", "DROP TRIGGER tasks_metrics_update", "DROP TRIGGER tasks_metrics_delete"},
	"postgres": {"DROP VIEW task_param_name_rows", "DROP VIEW task_param_value_rows", "DROP VIEW task_metric_variant_rows",
		"DROP TRIGGER tasks_params_insert ON tasks", "DROP TRIGGER tasks_params_delete ON tasks",
		"DROP TRIGGER tasks_params_update ON tasks", "DROP TRIGGER tasks_metrics_insert ON tasks",
		"DROP TRIGGER tasks_metrics_delete ON tasks", "DROP TRIGGER tasks_metrics_update ON tasks",
		"DROP FUNCTION trove_task_params_upkeep", "DROP FUNCTION trove_task_metrics_upkeep",
		"DROP FUNCTION trove_param_names", "DROP FUNCTION trove_param_values", "DROP FUNCTION trove_metric_variants"},
}

// A name no task holds any more is not read back (its row stays at 0).
func TestNameTableReadsSkipUnheldNames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		tk := newTask("a", "c1", "n")
		tk.Hyperparams = map[string]map[string]*store.ParamItem{"Args": {"lr": {Section: "Args", Name: "lr", Value: "0.1"}}}
		tk.LastMetrics = map[string]map[string]*store.MetricSummary{"hm": {"hv": {Metric: "loss", Variant: "v"}}}
		insertTasks(t, db, tk)
		mustTx(t, db, func(q store.Querier) error { _, err := db.DeleteTasks(ctx, q, []string{"a"}); return err })
		scan := store.DocScan{Companies: []string{"c1"}, AllProjects: true}
		names, err1 := db.TaskParamNames(ctx, scan)
		values, err2 := db.TaskParamValues(ctx, scan, "Args", "lr")
		pairs, err3 := db.TaskMetricVariants(ctx, scan)
		if len(names)+len(values)+len(pairs) != 0 || err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("after the delete: %v %v %v (%v %v %v)", names, values, pairs, err1, err2, err3)
		}
	})
}

// Migration 0075 fills the name tables from the tasks already stored.
func TestNameTablesBackfill(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "trove.db")
			if b == "postgres" {
				dsn = storetest.NewPostgresDB(t)
			}
			db, err := store.Open(ctx, dsn, "")
			if err != nil {
				t.Fatal(err)
			}
			stmts := append(undoMigration0075[b], "DROP TABLE task_param_names", "DROP TABLE task_param_values",
				"DROP TABLE task_metric_variants", "DELETE FROM schema_migrations WHERE version = 75")
			mustTx(t, db, func(q store.Querier) error {
				for _, s := range stmts {
					if _, err := q.ExecContext(ctx, s); err != nil {
						return fmt.Errorf("%s: %w", s, err)
					}
				}
				return nil
			})
			r := rand.New(rand.NewSource(3))
			var tasks []*store.Task
			for i := 0; i < 40; i++ {
				tk := newTask(fmt.Sprintf("t%02d", i), []string{"c1", "c2", ""}[i%3], "n")
				tk.Project = []string{"", "pA", "pB"}[i%3]
				randomNames(r, tk)
				tasks = append(tasks, tk)
			}
			insertTasks(t, db, tasks...)
			db.Close()
			if db, err = store.Open(ctx, dsn, ""); err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			checkNameTables(t, db, "after the migration")
		})
	}
}

// Names and values longer than a PostgreSQL B-tree entry may hold are
// indexed (the keys there are their md5) and read back whole.
func TestNameTablesTakeLongText(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		long := strings.Repeat("x", 20000)
		tk := newTask("long", "c1", "n")
		tk.Hyperparams = map[string]map[string]*store.ParamItem{long: {long: {Section: long, Name: long, Value: long}}}
		tk.LastMetrics = map[string]map[string]*store.MetricSummary{long: {long: {Metric: long, Variant: long}}}
		insertTasks(t, db, tk)
		scan := store.DocScan{Companies: []string{"c1"}, AllProjects: true}
		if values, err := db.TaskParamValues(ctx, scan, long, long); err != nil || len(values) != 1 || values[0] != long {
			t.Fatalf("values of the long name: %d, %v", len(values), err)
		}
		checkNameTables(t, db, "long names")
	})
}
