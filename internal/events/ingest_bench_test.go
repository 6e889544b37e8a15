package events

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// BenchmarkIngestScalars measures one writer storing batches of 1000
// scalar events (4 series x 250 iterations) through Ingest, against the
// same rows inserted straight into event_scalars. No HTTP: the difference
// is parsing, the summary, series, rollups and the task record.
//
//	go test -run '^$' -bench IngestScalars ./internal/events/
func BenchmarkIngestScalars(b *testing.B) {
	ctx := context.Background()
	db := openBenchDB(b)
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
			rows := make([]eventstore.ScalarRow, 1000)
			for j := range rows {
				rows[j] = eventstore.ScalarRow{Series: 1000 + int64(j/250), Iter: rawIter + int64(j%250), Value: float64(j), TS: ts, WTS: ts, TS0: ts0}
			}
			rawIter += 250
			err := db.Tx(ctx, func(q store.Querier) error { return eventstore.Of(db).InsertScalars(ctx, q, rows) })
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*1000)/b.Elapsed().Seconds(), "rows/s")
	})
}

// BenchmarkParseScalars measures parsing and validating the lines of one
// 1000-event batch as the SDK sends them (the handlers' share of ingest).
//
//	go test -run '^$' -bench ParseScalars -benchmem ./internal/events/
func BenchmarkParseScalars(b *testing.B) {
	ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
	lines := make([][]byte, 1000)
	for i := range lines {
		lines[i] = []byte(`{"timestamp":` + ts + `,"type":"training_stats_scalar","task":"0f6d5e4c3b2a41908f7e6d5c4b3a2910","iter":` +
			strconv.Itoa(i/4) + `,"metric":"loss","variant":"series` + strconv.Itoa(i%4) + `","value":` +
			strconv.FormatFloat(float64(i%1000)/997, 'g', -1, 64) + `,"allow_locked":false,"model_event":false}`)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := NewParser("w")
		for _, ln := range lines {
			if _, bad := p.Parse(ln); bad != "" {
				b.Fatal(bad)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/event")
}

// BenchmarkIngestSmallBatches measures what trove-bench fleet's batches
// cost without HTTP: 200 tasks, each reporting 5 metrics x 10 variants,
// take turns sending a 50-scalar batch (one iteration), one batch at a
// time through Ingest. Per batch this is the summary upkeep of a task
// document with 50 entries, 50 series touched and 50 points.
//
//	go test -run '^$' -bench IngestSmallBatches -benchmem ./internal/events/
func BenchmarkIngestSmallBatches(b *testing.B) {
	ctx := context.Background()
	db := openBenchDB(b)
	const tasks = 200
	ids := make([]string, tasks)
	for i := range ids {
		ids[i] = newStoredTask(b, db, "c", "fleet "+strconv.Itoa(i))
	}
	in := &Ingester{DB: db, Now: time.Now}
	batch := func(id string, iter int64) [][]byte {
		out := make([][]byte, 0, 50)
		ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
		for m := range 5 {
			for v := range 10 {
				out = append(out, []byte(`{"timestamp":`+ts+`,"type":"training_stats_scalar","task":"`+id+`","iter":`+strconv.FormatInt(iter, 10)+
					`,"metric":"metric_`+strconv.Itoa(m)+`","variant":"variant_`+strconv.Itoa(v)+`","value":`+strconv.FormatFloat(float64(iter%97)/91, 'g', -1, 64)+`}`))
			}
		}
		return out
	}
	send := func(n int, iter int64) {
		id := ids[n%tasks]
		if _, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: batch(id, iter)}); err != nil {
			b.Fatal(err)
		}
	}
	// every task's first batch creates its series: not what is measured
	for i := range tasks {
		send(i, 0)
	}
	for i := 0; b.Loop(); i++ {
		send(i, int64(1+i/tasks))
	}
}

// openBenchDB opens an embedded store in the benchmark's temp dir, closed
// when it ends.
func openBenchDB(b *testing.B) *store.DB {
	db, err := store.Open(context.Background(), "", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}
