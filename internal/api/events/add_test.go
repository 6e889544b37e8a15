package events_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

func TestAddBatch(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "ingest")
		published := newTask(t, e, "published", func(t *store.Task) { t.Status = "published" })
		r := batch(t, e,
			scalar(task, "loss", "train", 0, 1.5),
			scalar(task, "loss", "train", 1, 0.5),
			scalar(task, "loss", "train", 2, 1.0),
			`{"type": "log", "task": "`+task+`", "level": "INFO", "msg": "hello", "method": "get"}`,
			`{"type": "plot", "task": "`+task+`", "iter": 3, "metric": "p", "variant": "v", "plot_str": "{\"data\": []}"}`,
			`{"type": "training_debug_image", "task": "`+task+`", "iter": 3, "metric": "img", "variant": "v", "key": "k", "url": "http://x/a.png"}`,
			`{"type": "training_stats_vector", "task": "`+task+`", "iter": 3, "metric": "vec", "variant": "v", "values": [1, 2, 3]}`,
			`{"type": "training_stats_scalar", "task": "`+task+`", "metric": "bad", "variant": "v", "iter": 1, "value": NaN}`,
			`{"type": "training_stats_scalar", "task": "`+task+`", "metric": "bad", "variant": "v", "iter": "x", "value": 1}`,
			`{"type": "nope", "task": "`+task+`"}`,
			`{"task": "`+task+`"}`,
			`{"type": "log"}`,
			`{"type": "log", "task": "`+published+`", "msg": "x"}`,
			`{broken json`,
		).OK(t)
		if r.Num("added") != 7 || r.Num("errors") != 7 {
			t.Fatalf("bad counts: %s", r.Raw)
		}
		info := r.Data["errors_info"].(map[string]any)
		for _, k := range []string{"Invalid event type nope", "Event must have a 'type' field", "Event must have a 'task' field",
			"Invalid task id " + published, "Malformed JSON line", "Invalid field 'iter' (expected an integer)"} {
			if info[k] != 1.0 {
				t.Errorf("errors_info[%q] = %v: %s", k, info[k], r.Raw)
			}
		}
		tk := getTask(t, e, task)
		lm := tk.LastMetrics[events.Hash("loss")][events.Hash("train")]
		if lm == nil || lm.Value != 1.0 || lm.MinValue != 0.5 || lm.MinValueIteration != 1 || lm.MaxValue != 1.5 || lm.Count != 3 || *lm.MeanValue != 1.0 || *lm.FirstValue != 1.5 {
			t.Fatalf("bad last metrics %+v", lm)
		}
		if tk.LastIteration != 3 {
			t.Fatalf("last_iteration %d", tk.LastIteration)
		}
		// nothing valid: 400/131
		r = batch(t, e, `{"type": "nope", "task": "x"}`).Err(t, 400, 131)
		if r.Num("added") != 0 || r.Data["added"] == nil || r.Num("errors") != 1 {
			t.Fatalf("refusal without added: %s", r.Raw)
		}
		batch(t, e, `{"type": "log", "task": "unknown-task", "msg": "x"}`).Err(t, 400, 131)
		// allow_locked lets events into a published task
		batch(t, e, ev{"type": "log", "task": published, "msg": "x", "allow_locked": true}).OK(t)
		// inconsistent allow_locked
		batch(t, e, ev{"type": "log", "task": task, "allow_locked": true}, ev{"type": "log", "task": task}).Err(t, 400, 12)
		// empty batch
		batch(t, e).Err(t, 400, 17)
	})
}

func TestAddSingle(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "single")
		cases := []struct {
			name    string
			op      string
			body    any
			code    int
			subcode int
			added   float64
		}{
			{"scalar", "events.add", scalar(task, "m", "v", 1, 2.5), 200, 0, 1},
			{"log with the agent's level", "events.add", ev{"type": "log", "task": task, "level": "WARNING", "msg": "x"}, 200, 0, 1},
			{"unknown type", "events.add", ev{"type": "bogus", "task": task}, 400, 131, 0},
			{"unknown task", "events.add", ev{"type": "log", "task": "nope"}, 400, 131, 0},
			{"NaN value", "events.add", `{"type": "training_stats_scalar", "task": "` + task + `", "value": NaN}`, 400, 131, 0},
			{"not an object", "events.add", `[1]`, 400, 12, 0},
			{"malformed", "events.add", `{"type": `, 400, 0, 0},
			{"plain JSON to add_batch is one event", "events.add_batch", ev{"type": "log", "task": task, "msg": "y"}, 200, 0, 1},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, tc.op, tc.body)
				if tc.code == 200 {
					if r.OK(t).Num("added") != tc.added {
						t.Fatalf("added %v", r.Num("added"))
					}
					return
				}
				r.Err(t, tc.code, tc.subcode)
			})
		}
		if got := getTask(t, e, task).LastMetrics[events.Hash("m")][events.Hash("v")]; got == nil || got.Value != 2.5 {
			t.Fatalf("events.add did not update last_metrics: %+v", got)
		}
	})
}
