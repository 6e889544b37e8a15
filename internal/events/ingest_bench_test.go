package events

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// BenchmarkIngestScalars measures one writer storing batches of 1000
// scalar events (4 series x 250 iterations) through Ingest, against the
// same rows inserted straight into event_scalars. No HTTP: the difference
// is parsing, the summary, series, rollups and the task record.
//
//	go test -run '^$' -bench IngestScalars ./internal/events/
func BenchmarkIngestScalars(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, "", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	now := jsonx.Now()
	task := &store.Task{ID: "benchtask", Company: "c", User: "u", Name: "bench", Type: "training", Status: "in_progress",
		Created: now, LastUpdate: now, LastChange: now}
	task.Normalize()
	if err := db.Tasks().Insert(ctx, db.Write(), task); err != nil {
		b.Fatal(err)
	}
	lines := func(iter int64) [][]byte {
		out := make([][]byte, 1000)
		// reported as it happens, as the SDK does
		ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
		for i := range out {
			it := iter + int64(i%250)
			out[i] = []byte(`{"timestamp":` + ts + `,"type":"training_stats_scalar","task":"benchtask","iter":` + strconv.FormatInt(it, 10) +
				`,"metric":"loss","variant":"s` + strconv.Itoa(i/250) + `","value":` + strconv.FormatFloat(float64(it%997)/991, 'g', -1, 64) + `}`)
		}
		return out
	}
	in := &Ingester{DB: db, Now: time.Now}
	iter, rawIter := int64(0), int64(0)
	b.Run("ingest", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			ls := lines(iter)
			iter += 250
			if _, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: ls}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*1000)/b.Elapsed().Seconds(), "events/s")
	})
	b.Run("raw", func(b *testing.B) {
		ts0 := time.Now().UnixMilli()
		for i := 0; i < b.N; i++ {
			ts := time.Now().UnixMilli()
			rows := make([]store.ScalarRow, 1000)
			for j := range rows {
				rows[j] = store.ScalarRow{Series: 1000 + int64(j/250), Iter: rawIter + int64(j%250), Value: float64(j), TS: ts, WTS: ts, TS0: ts0}
			}
			rawIter += 250
			err := db.Tx(ctx, func(q store.Querier) error { return db.Events().InsertScalars(ctx, q, rows) })
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*1000)/b.Elapsed().Seconds(), "rows/s")
	})
}
