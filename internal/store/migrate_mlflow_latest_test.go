package store_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// Migration 0145 fills mlflow_latest_metrics from the latest values the
// runs' documents already held: a finite value with its number, NaN and
// infinities with none, and nothing for a task without MLflow metrics.
func TestMigrationBackfillsLatestMetrics(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "trove.db")
			if backend == "postgres" {
				dsn = storetest.NewPostgresDB(t)
			}
			restore := store.SetMigrationsThrough(140)
			old, err := store.Open(context.Background(), dsn, "")
			restore()
			if err != nil {
				t.Fatal(err)
			}
			half := 0.5
			run := newTask("run1", "c1", "mlflow run")
			run.MLflow = &store.MLflowRun{Metrics: map[string]*store.LatestMetric{
				"loss":     {Value: "0.5", Num: &half, Step: 3, Timestamp: 10},
				"acc/top1": {Value: "NaN", Step: 3, Timestamp: 10},
			}}
			insertTasks(t, old, run, newTask("plain", "c1", "clearml task"))
			old.Close()

			db, err := store.Open(context.Background(), dsn, "")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rows, err := db.Read().QueryContext(ctx, "SELECT task, metric_key, num FROM mlflow_latest_metrics ORDER BY task, metric_key")
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got []string
			for rows.Next() {
				var task, key string
				var num *float64
				if err := rows.Scan(&task, &key, &num); err != nil {
					t.Fatal(err)
				}
				s := task + " " + key + " "
				if num == nil {
					s += "null"
				} else {
					s += strconv.FormatFloat(*num, 'g', -1, 64)
				}
				got = append(got, s)
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			want := []string{"run1 acc/top1 null", "run1 loss 0.5"}
			if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
				t.Fatalf("latest rows after the migration: %q, want %q", got, want)
			}
		})
	}
}
