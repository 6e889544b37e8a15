package queues_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"testing"

	idgen "github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// call posts one operation and returns its data; safe in any goroutine.
func call(client *http.Client, e *testenv.Env, op string, body any) (map[string]any, error) {
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest(http.MethodPost, e.URL+"/"+op, bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.Token)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var env struct {
		Meta struct {
			ResultCode int    `json:"result_code"`
			ResultMsg  string `json:"result_msg"`
		} `json:"meta"`
		Data map[string]any `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return nil, err
	}
	if env.Meta.ResultCode != 200 {
		return nil, fmt.Errorf("%s: %d %s", op, env.Meta.ResultCode, env.Meta.ResultMsg)
	}
	return env.Data, nil
}

// createdTasks inserts n enqueueable tasks through the store.
func createdTasks(b *testing.B, e *testenv.Env, n int) []string {
	me := e.Call(b, "users.get_current_user", nil).OK(b)
	d := e.App.Deps
	ids := make([]string, n)
	err := d.DB.Tx(context.Background(), func(q store.Querier) error {
		for i := range ids {
			now := d.Time()
			t := &store.Task{ID: idgen.New(), Company: me.Str("user.company.id"), User: me.Str("user.id"),
				Name: fmt.Sprintf("bench-%d", i), Type: "training", Status: "created", Created: now, LastUpdate: now, LastChange: now}
			t.Normalize()
			t.Script.EntryPoint, t.Script.Repository = "train.py", "https://example.com/r.git"
			if err := d.DB.Tasks().Insert(context.Background(), q, t); err != nil {
				return err
			}
			ids[i] = t.ID
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return ids
}

// BenchmarkEnqueueAndHandOut measures round trips of tasks.enqueue followed
// by queues.get_next_task on one queue, with 16 concurrent workers, through
// the real router over HTTP. Run with -benchtime=Nx (tasks are made ahead).
// A hand-out that finds the queue momentarily empty is retried and counted
// in the round trip.
func BenchmarkEnqueueAndHandOut(b *testing.B) {
	const workers = 16
	for _, backend := range testenv.Backends() {
		b.Run(backend, func(b *testing.B) {
			e := testenv.New(b, backend)
			queue := newQueue(b, e, "bench")
			ids := make(chan string, b.N)
			for _, id := range createdTasks(b, e, b.N) {
				ids <- id
			}
			close(ids)
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
			b.SetParallelism((workers + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					id := <-ids
					if _, err := call(client, e, "tasks.enqueue", map[string]any{"task": id, "queue": queue}); err != nil {
						b.Error(err)
						return
					}
					// On PostgreSQL a call may find every visible entry taken
					// by concurrent callers (skip-locked hand-out): ask again.
					for try := 0; ; try++ {
						data, err := call(client, e, "queues.get_next_task", map[string]any{"queue": queue})
						if err != nil {
							b.Error(err)
							return
						}
						if data["entry"] != nil {
							break
						}
						if try == 100 {
							b.Error("queue stays empty after an enqueue")
							return
						}
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "roundtrips/s")
		})
	}
}

// BenchmarkHandOut measures queues.get_next_task alone: 16 concurrent
// workers drain a queue filled ahead with b.N entries.
func BenchmarkHandOut(b *testing.B) {
	const workers = 16
	for _, backend := range testenv.Backends() {
		b.Run(backend, func(b *testing.B) {
			e := testenv.New(b, backend)
			queue := newQueue(b, e, "bench-drain")
			fillQueue(b, e, queue, b.N)
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
			b.SetParallelism((workers + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := nextTask(client, e, queue); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "handouts/s")
		})
	}
}
