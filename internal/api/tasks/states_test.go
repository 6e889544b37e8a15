package tasks_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
	"github.com/trove-ml/trove/internal/testenv"
)

var allStatuses = []string{"created", "queued", "in_progress", "stopped", "published", "publishing", "closed", "failed", "completed", "unknown"}

// stateRow is one row of docs/task-states.md: the statuses an operation
// accepts without force, what it leads to, and whether force is honoured.
type stateRow struct {
	op    string
	body  obj
	from  []string
	to    string // resulting status; "" = unchanged; "-" = task deleted
	force bool   // force accepts every status
	// leads overrides to for some starting statuses.
	leads   map[string]string
	code    int // refusal code/subcode
	subcode int
}

var stateTable = []stateRow{
	{op: "tasks.started", from: []string{"created", "queued"}, to: "in_progress", force: true, code: 400, subcode: 110},
	{op: "tasks.stop", from: []string{"in_progress"}, to: "stopped", force: true, code: 400, subcode: 110},
	{op: "tasks.stopped", from: []string{"in_progress", "stopped"}, to: "stopped", force: true, code: 400, subcode: 110},
	{op: "tasks.completed", from: []string{"in_progress", "stopped", "completed"}, to: "completed", force: true, code: 400, subcode: 110},
	{op: "tasks.failed", from: []string{"in_progress", "stopped", "closed", "failed"}, to: "failed", force: true, code: 400, subcode: 110},
	{op: "tasks.close", from: []string{"stopped", "closed"}, to: "closed", force: true, code: 400, subcode: 110},
	{op: "tasks.publish", from: []string{"stopped", "completed"}, to: "published", force: true, code: 400, subcode: 110},
	{op: "tasks.enqueue", from: []string{"created"}, to: "queued", force: false, code: 400, subcode: 110},
	{op: "tasks.dequeue", from: []string{"queued"}, to: "created", force: false, code: 400, subcode: 110},
	{op: "tasks.reset", from: []string{"created", "queued", "in_progress", "stopped", "closed", "failed", "unknown"}, to: "created", force: true, code: 400, subcode: 110},
	{op: "tasks.delete", from: []string{"created", "queued", "stopped", "publishing", "closed", "failed", "completed", "unknown"}, to: "-", force: true, code: 400, subcode: 123},
	{op: "tasks.edit", body: obj{"comment": "edited"}, from: []string{"created"}, to: "", force: true, code: 400, subcode: 110},
	{op: "tasks.archive_many", from: allStatuses, to: "", force: true, leads: map[string]string{"queued": "created", "in_progress": "stopped"}},
}

// TestStateMachine proves every row of the state table: each operation
// from each status, with and without force.
func TestStateMachine(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		queue := mkQueue(t, e, "states queue")
		for _, row := range stateTable {
			for _, from := range allStatuses {
				for _, force := range []bool{false, true} {
					name := fmt.Sprintf("%s/from_%s/force_%v", row.op, from, force)
					t.Run(name, func(t *testing.T) {
						id := mkTask(t, e, "state task", obj{"script": obj{"entry_point": "run.py", "diff": "print(1)"}})
						e.Call(t, "tasks.edit", obj{"task": id, "force": true, "status": from}).OK(t)
						body := obj{"task": id, "force": force}
						for k, v := range row.body {
							body[k] = v
						}
						switch row.op {
						case "tasks.enqueue":
							body["queue"] = queue
						case "tasks.archive_many":
							body = obj{"ids": []string{id}}
						}
						allowed := contains(row.from, from) || (force && row.force)
						r := e.Call(t, row.op, body)
						if !allowed {
							r.Err(t, row.code, row.subcode)
							if got := status(t, e, id); got != from {
								t.Fatalf("refused change still changed status to %s", got)
							}
							return
						}
						r.OK(t)
						to := row.to
						if l, ok := row.leads[from]; ok {
							to = l
						}
						switch to {
						case "-":
							e.Call(t, "tasks.get_by_id", obj{"task": id}).Err(t, 400, 101)
						case "":
							if got := status(t, e, id); got != from {
								t.Fatalf("status changed to %s", got)
							}
						default:
							if got := status(t, e, id); got != to {
								t.Fatalf("want %s, got %s", to, got)
							}
						}
					})
				}
			}
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestStatusChangeIsConditional shows that a change computed from a stale
// read loses (400/121) and that concurrent changes never both win.
func TestStatusChangeIsConditional(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		ctx := context.Background()
		db, d := e.App.DB, e.App.Deps
		id := mkTask(t, e, "race task", nil)
		stale, err := db.Tasks().Get(ctx, db.Read(), id)
		if err != nil {
			t.Fatal(err)
		}
		e.Call(t, "tasks.started", obj{"task": id}).OK(t)
		err = db.Tx(ctx, func(q store.Querier) error {
			_, err := taskdom.SetStatus(ctx, &d.Env, q, stale.User, stale, taskdom.Change{To: "failed", Force: true})
			return err
		})
		if err == nil || err.Error() == "" || !isAPI(err, 400, 121) {
			t.Fatalf("stale change: want 400/121, got %v", err)
		}
		if got := status(t, e, id); got != "in_progress" {
			t.Fatalf("stale change wrote status %s", got)
		}

		id2 := mkTask(t, e, "race task 2", nil)
		const n = 8
		var wg sync.WaitGroup
		codes := make([]int, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				codes[i] = e.Call(t, "tasks.started", obj{"task": id2}).Status
			}(i)
		}
		wg.Wait()
		wins := 0
		for _, c := range codes {
			switch c {
			case 200:
				wins++
			case 400:
			default:
				t.Fatalf("unexpected status %d", c)
			}
		}
		if wins != 1 {
			t.Fatalf("want exactly one winner, got %d (%v)", wins, codes)
		}
	})
}
