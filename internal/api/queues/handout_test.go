package queues_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/trove-ml/trove/internal/config"
	idgen "github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// twoServers starts two Trove instances on one database: the same SQLite
// file, or the same PostgreSQL database.
func twoServers(t testing.TB, backend string) (*testenv.Env, *testenv.Env) {
	t.Helper()
	first := testenv.New(t, backend)
	second := testenv.New(t, backend, func(c *config.Config) {
		c.DataDir, c.DB = first.App.Cfg.DataDir, first.App.Cfg.DB
	})
	return first, second
}

// fillQueue puts n new queued tasks into queue directly through the store,
// in one transaction, and returns their ids.
func fillQueue(t testing.TB, e *testenv.Env, queue string, n int) []string {
	t.Helper()
	me := e.Call(t, "users.get_current_user", nil).OK(t)
	company, user := me.Str("user.company.id"), me.Str("user.id")
	d := e.App.Deps
	ids := make([]string, n)
	err := d.DB.Tx(context.Background(), func(q store.Querier) error {
		for i := range ids {
			now := d.Time()
			task := &store.Task{ID: idgen.New(), Company: company, User: user, Name: fmt.Sprintf("load-%d", i), Type: "training",
				Status: "queued", Created: now, LastUpdate: now, LastChange: now}
			task.Normalize()
			task.Execution.Queue = queue
			if err := d.DB.Tasks().Insert(context.Background(), q, task); err != nil {
				return err
			}
			if err := d.DB.AddQueueEntry(context.Background(), q, queue, task.ID, now.Millis()); err != nil {
				return err
			}
			ids[i] = task.ID
		}
		return nil
	})
	if err != nil {
		t.Fatalf("fill queue: %v", err)
	}
	return ids
}

// nextTask calls queues.get_next_task and returns the task handed out
// ("" when the queue is empty). Safe to call from any goroutine.
func nextTask(client *http.Client, e *testenv.Env, queue string) (string, error) {
	body, _ := json.Marshal(map[string]any{"queue": queue})
	req, err := http.NewRequest(http.MethodPost, e.URL+"/queues.get_next_task", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.Token)
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var env struct {
		Meta struct {
			ResultCode int    `json:"result_code"`
			ResultMsg  string `json:"result_msg"`
		} `json:"meta"`
		Data struct {
			Entry *struct {
				Task string `json:"task"`
			} `json:"entry"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return "", err
	}
	if env.Meta.ResultCode != 200 {
		return "", fmt.Errorf("get_next_task: %d %s", env.Meta.ResultCode, env.Meta.ResultMsg)
	}
	if env.Data.Entry == nil {
		return "", nil
	}
	return env.Data.Entry.Task, nil
}

// TestHandOutExactlyOnce drains a queue of 2,000 tasks with 32 concurrent
// workers spread over two Trove processes on one database: every task is
// handed out exactly once and none is lost.
func TestHandOutExactlyOnce(t *testing.T) {
	const tasks, workers = 2000, 32
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			first, second := twoServers(t, backend)
			queue := newQueue(t, first, "drain")
			want := fillQueue(t, first, queue, tasks)
			var mu sync.Mutex
			got := map[string]int{}
			perServer := [2]int{}
			errs := make(chan error, workers)
			var wg sync.WaitGroup
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					env := []*testenv.Env{first, second}[w%2]
					for {
						id, err := nextTask(client, env, queue)
						if err != nil {
							errs <- err
							return
						}
						if id == "" {
							return
						}
						mu.Lock()
						got[id]++
						perServer[w%2]++
						mu.Unlock()
					}
				}(w)
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			for _, id := range want {
				if got[id] != 1 {
					t.Fatalf("task %s handed out %d times", id, got[id])
				}
			}
			if len(got) != tasks {
				t.Fatalf("handed out %d distinct tasks, want %d", len(got), tasks)
			}
			if perServer[0] == 0 || perServer[1] == 0 {
				t.Fatalf("both processes should hand out tasks: %v", perServer)
			}
			if n := first.Call(t, "queues.get_num_entries", map[string]any{"queue": queue}).OK(t).Num("num"); n != 0 {
				t.Fatalf("queue not drained: %v left", n)
			}
		})
	}
}
