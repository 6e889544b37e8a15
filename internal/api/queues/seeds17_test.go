package queues_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Seed document 1, queues.get_all: "scroll_id (string), ... size (integer,
// minimum 1) | queues (queues.queue[]), scroll_id"; get_all_ex answers
// "queues, scroll_id". Limits: size "minimum 1".
func TestSeedQueuesScrollSize(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		for _, n := range []string{"q-a", "q-b", "q-c"} {
			newQueue(t, e, n)
		}
		for _, op := range []string{"queues.get_all", "queues.get_all_ex"} {
			body := map[string]any{"name": "^q-", "size": 2, "order_by": []string{"name"}}
			first := e.Call(t, op, body).OK(t)
			id := first.Str("scroll_id")
			if len(first.List("queues")) != 2 || id == "" {
				t.Fatalf("%s with size: a page of 2 and a scroll_id: %s", op, first.Raw)
			}
			body["scroll_id"] = id
			next := e.Call(t, op, body).OK(t)
			if len(next.List("queues")) != 1 || next.Str("queues.0.name") != "q-c" {
				t.Fatalf("%s second page: %s", op, next.Raw)
			}
			if all := e.Call(t, op, map[string]any{"name": "^q-"}).OK(t); len(all.List("queues")) != 3 || all.Str("scroll_id") == "" {
				t.Fatalf("%s without size: %s", op, all.Raw)
			}
			e.Call(t, op, map[string]any{"size": 0}).Err(t, 400, 12)
		}
	})
}
