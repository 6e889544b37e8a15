package models_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	idgen "github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// benchModels and benchTasks size the seeded tables of the benchmarks.
const (
	benchModels = 20000
	benchTasks  = 20000
)

// benchEnv is a server whose store holds benchModels models over 50
// projects (each created by one of benchTasks tasks) and benchTasks tasks
// with one input model each, bulk-loaded through the store.
type benchEnv struct {
	e       *testenv.Env
	project string
	task    string
	uri     string
}

func seed(b *testing.B, backend string) *benchEnv {
	b.Helper()
	e := testenv.New(b, backend)
	be := &benchEnv{e: e}
	var projects []string
	for i := range 50 {
		projects = append(projects, mkProject(b, e, fmt.Sprintf("bench/p%02d", i)))
	}
	db, ctx, now := e.App.DB, context.Background(), jsonx.Now()
	models := make([]string, benchModels)
	err := db.Tx(ctx, func(q store.Querier) error {
		for i := range benchTasks {
			tk := &store.Task{ID: idgen.New(), Company: auth.DefaultCompanyID, User: auth.AdminUserID, Name: fmt.Sprintf("task %d", i),
				Type: "training", Status: "completed", Project: projects[i%len(projects)], Created: now, LastUpdate: now, LastChange: now}
			tk.Normalize()
			if i == 0 {
				be.task = tk.ID
			}
			m := &store.Model{ID: idgen.New(), Company: auth.DefaultCompanyID, User: auth.AdminUserID, Name: fmt.Sprintf("model %d", i),
				URI: fmt.Sprintf("file:///models/%d.pt", i), Project: tk.Project, Task: tk.ID, Created: now, LastUpdate: now, LastChange: now,
				Labels: map[string]int64{"a": 1}, Metadata: map[string]*store.MetadataItem{"epochs": {Key: "epochs", Type: "int", Value: fmt.Sprint(i % 100)}}}
			m.Normalize()
			models[i] = m.ID
			if i > 0 {
				tk.Models.Input = []*store.TaskModelItem{{Name: "in", Model: models[i-1]}}
			}
			if err := db.Tasks().Insert(ctx, q, tk); err != nil {
				return err
			}
			if err := db.Models().Insert(ctx, q, m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatalf("seed: %v", err)
	}
	if db.IsPostgres() {
		// Statistics as autovacuum would have them after a bulk load.
		if _, err := db.Write().ExecContext(ctx, "ANALYZE"); err != nil {
			b.Fatalf("analyze: %v", err)
		}
	}
	be.project, be.uri = projects[7], "file:///models/12345.pt"
	return be
}

// run benchmarks one call on every backend against the seeded tables.
func run(b *testing.B, body func(be *benchEnv) (string, any)) {
	for _, backend := range testenv.Backends() {
		b.Run(backend, func(b *testing.B) {
			be := seed(b, backend)
			b.ResetTimer()
			for b.Loop() {
				op, req := body(be)
				be.e.Call(b, op, req).OK(b)
			}
		})
	}
}

// BenchmarkGetAllByURI is the SDK's lookup of an existing model by weights URI.
func BenchmarkGetAllByURI(b *testing.B) {
	run(b, func(be *benchEnv) (string, any) {
		return "models.get_all", obj{"uri": []string{be.uri}, "only_fields": []string{"id", "name", "created"}}
	})
}

// BenchmarkGetAllOfTask is the SDK's read of a task's output models.
func BenchmarkGetAllOfTask(b *testing.B) {
	run(b, func(be *benchEnv) (string, any) {
		return "models.get_all", obj{"task": []string{be.task}, "order_by": []string{"created"}, "only_fields": []string{"id"}}
	})
}

// BenchmarkGetAllExProjectPage is the UI's models table: one project,
// newest first, a page of 50 with the project name resolved.
func BenchmarkGetAllExProjectPage(b *testing.B) {
	run(b, func(be *benchEnv) (string, any) {
		return "models.get_all_ex", obj{"project": []string{be.project}, "order_by": []string{"-last_update"}, "page_size": 50,
			"system_tags": []string{"-archived"}, "only_fields": []string{"name", "framework", "ready", "project.name", "user.name", "metadata"}}
	})
}

// BenchmarkCreate creates models one after another.
func BenchmarkCreate(b *testing.B) {
	run(b, func(be *benchEnv) (string, any) {
		return "models.create", obj{"name": "bench model", "uri": "file:///x.pt", "project": be.project, "labels": obj{"a": 1}}
	})
}

// BenchmarkDeleteUnused deletes models no task uses: each delete looks
// for tasks using the model as input among all benchTasks tasks.
func BenchmarkDeleteUnused(b *testing.B) {
	run(b, func(be *benchEnv) (string, any) {
		id := be.e.Call(b, "models.create", obj{"name": "to delete", "uri": "file:///x.pt"}).OK(b).Str("id")
		return "models.delete", obj{"model": id}
	})
}
