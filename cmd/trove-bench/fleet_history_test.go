package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// The history is stored before the measured phase, and the measured
// batches continue each experiment's series after it.
func TestFleetHistoryThenReport(t *testing.T) {
	f, err := startFleetServer("")
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	cfg := fleetConfig{n: 3, dur: 1500 * time.Millisecond, interval: 500 * time.Millisecond, scalars: 10, timeout: 10 * time.Second, history: 150}
	exps, err := f.experiments(cfg.n)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.fillHistory(exps, cfg); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, e := range exps {
		task, err := f.a.DB.Tasks().Get(ctx, f.a.DB.Read(), e.task)
		if err != nil {
			t.Fatal(err)
		}
		// 150 iterations in two requests (100 and 50): the last is 149
		if task.LastIteration != cfg.history-1 {
			t.Fatalf("task %s: last_iteration %d after the history, want %d", e.task, task.LastIteration, cfg.history-1)
		}
	}
	res := f.report(exps, cfg)
	if res.sent.Load() == 0 || res.acked.Load() != res.sent.Load() {
		t.Fatalf("sent %d, acknowledged %d, failures %v", res.sent.Load(), res.acked.Load(), res.failures)
	}
	for _, e := range exps {
		task, err := f.a.DB.Tasks().Get(ctx, f.a.DB.Read(), e.task)
		if err != nil {
			t.Fatal(err)
		}
		if task.LastIteration < cfg.history {
			t.Fatalf("task %s: last_iteration %d after the measured phase, want at least %d", e.task, task.LastIteration, cfg.history)
		}
	}
}

// A history batch the server refuses, in whole or in part, fails the
// fill rather than leaving shorter series than asked for.
func TestFleetHistoryFailsOnRefusedEvents(t *testing.T) {
	f, err := startFleetServer("")
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	exps, err := f.experiments(1)
	if err != nil {
		t.Fatal(err)
	}
	good := fleetLines(exps[0].task, 0, 2)
	if err := f.post(exps[0], good); err != nil {
		t.Fatalf("a valid batch: %v", err)
	}
	// one event of an unknown type: the rest is added, the answer counts
	// one error
	partly := append(append([]byte{}, fleetLines(exps[0].task, 1, 2)...), []byte("\n{\"type\":\"no_such_type\",\"task\":\""+exps[0].task+"\"}")...)
	if err := f.post(exps[0], partly); err == nil || !strings.Contains(err.Error(), `"errors":1`) {
		t.Fatalf("a batch with a refused event: %v", err)
	}
	missing := experiment{task: "no-such-task", token: exps[0].token}
	if err := f.fillHistory([]experiment{missing}, fleetConfig{n: 1, scalars: 5, history: 10}); err == nil {
		t.Fatal("a history to a task that does not exist was taken")
	}
}
