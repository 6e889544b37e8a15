package store_test

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

func addQueues(t *testing.T, db *store.DB, ids ...string) {
	t.Helper()
	mustTx(t, db, func(q store.Querier) error {
		for _, id := range ids {
			if err := db.Queues().Insert(ctx, q, &store.Queue{ID: id, Company: "c1", Name: "queue " + id,
				Created: at(0), LastUpdate: at(0), Tags: []string{}, SystemTags: []string{}}); err != nil {
				return err
			}
		}
		return nil
	})
}

func enqueue(t *testing.T, db *store.DB, queue string, tasks ...string) {
	t.Helper()
	mustTx(t, db, func(q store.Querier) error {
		for i, tk := range tasks {
			if err := db.AddQueueEntry(ctx, q, queue, tk, int64(1000+i)); err != nil {
				return fmt.Errorf("add %s: %w", tk, err)
			}
		}
		return nil
	})
}

func queueOrder(t *testing.T, db *store.DB, queue string) []string {
	t.Helper()
	es, err := db.QueueEntries(ctx, db.Read(), queue, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, e := range es {
		out = append(out, e.Task)
	}
	return out
}

func TestQueueAppend(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		addQueues(t, db, "q1")
		enqueue(t, db, "q1", "a", "b", "c")
		if got := queueOrder(t, db, "q1"); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
			t.Fatalf("order %v", got)
		}
		for _, c := range []struct {
			queue, task string
			want        error
		}{
			{"q1", "b", store.ErrAlreadyQueued},
			{"nope", "x", store.ErrNotFound},
		} {
			err := db.Tx(ctx, func(q store.Querier) error { return db.AddQueueEntry(ctx, q, c.queue, c.task, 1) })
			if !errors.Is(err, c.want) {
				t.Errorf("add %s to %s: want %v, got %v", c.task, c.queue, c.want, err)
			}
		}
		es, err := db.QueueEntries(ctx, db.Read(), "q1", 2)
		if err != nil || len(es) != 2 || es[0].Added != 1000 || es[0].Queue != "q1" {
			t.Fatalf("first two entries: %+v, %v", es, err)
		}
		load, err := db.QueueLoadOf(ctx, db.Read(), "q1")
		if err != nil || load.Entries != 3 || load.AddedSum != 3003 {
			t.Fatalf("load %+v, %v", load, err)
		}
	})
}

func TestQueuePopHandsOutEachEntryOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		addQueues(t, db, "q1")
		const n, poppers = 40, 6
		var tasks []string
		for i := 0; i < n; i++ {
			tasks = append(tasks, fmt.Sprintf("t%02d", i))
		}
		enqueue(t, db, "q1", tasks...)
		var mu sync.Mutex
		var got []string
		var wg sync.WaitGroup
		errs := make(chan error, poppers)
		for p := 0; p < poppers; p++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					var e *store.QueueEntry
					err := db.Tx(ctx, func(q store.Querier) error {
						var err error
						e, err = db.PopQueueEntry(ctx, q, "q1", "", jsonx.Now())
						return err
					})
					if err != nil {
						errs <- err
						return
					}
					if e == nil {
						return
					}
					mu.Lock()
					got = append(got, e.Task)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		sort.Strings(got)
		if !reflect.DeepEqual(got, tasks) {
			t.Fatalf("handed out %d entries %v, want each of %d once", len(got), got, n)
		}
		if rest := queueOrder(t, db, "q1"); len(rest) != 0 {
			t.Fatalf("left in the queue: %v", rest)
		}
	})
}

func TestQueuePopOrderAndOnlyTask(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		addQueues(t, db, "q1")
		enqueue(t, db, "q1", "a", "b")
		pop := func(only string) *store.QueueEntry {
			var e *store.QueueEntry
			mustTx(t, db, func(q store.Querier) error {
				var err error
				e, err = db.PopQueueEntry(ctx, q, "q1", only, jsonx.Now())
				return err
			})
			return e
		}
		if e := pop("b"); e != nil {
			t.Fatalf("b is not at the top but was handed out: %+v", e)
		}
		if e := pop("a"); e == nil || e.Task != "a" {
			t.Fatalf("pop a: %+v", e)
		}
		if e := pop(""); e == nil || e.Task != "b" {
			t.Fatalf("pop: %+v", e)
		}
		if e := pop(""); e != nil {
			t.Fatalf("empty queue handed out %+v", e)
		}
	})
}

func TestQueueMove(t *testing.T) {
	to := func(i int) func(int, int) int { return func(int, int) int { return i } }
	by := func(d int) func(int, int) int { return func(cur, _ int) int { return cur + d } }
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		addQueues(t, db, "q1")
		enqueue(t, db, "q1", "a", "b", "c", "d", "e")
		for _, c := range []struct {
			task   string
			target func(int, int) int
			index  int
			order  []string
		}{
			{"a", to(2), 2, []string{"b", "c", "a", "d", "e"}}, // no room between neighbours: renumbered
			{"e", to(0), 0, []string{"e", "b", "c", "a", "d"}},
			{"b", to(99), 4, []string{"e", "c", "a", "d", "b"}}, // clamped to the end
			{"d", by(-2), 1, []string{"e", "d", "c", "a", "b"}}, // between neighbours with room
			{"c", by(0), 2, []string{"e", "d", "c", "a", "b"}},
			{"e", to(-5), 0, []string{"e", "d", "c", "a", "b"}},
		} {
			var idx int
			mustTx(t, db, func(q store.Querier) error {
				var err error
				idx, err = db.MoveQueueEntry(ctx, q, "q1", c.task, c.target)
				return err
			})
			if got := queueOrder(t, db, "q1"); idx != c.index || !reflect.DeepEqual(got, c.order) {
				t.Fatalf("move %s: index %d order %v, want %d %v", c.task, idx, got, c.index, c.order)
			}
		}
		// An append after the moves still lands last.
		enqueue(t, db, "q1", "f")
		if got := queueOrder(t, db, "q1"); got[len(got)-1] != "f" {
			t.Fatalf("append after moves: %v", got)
		}
		for _, c := range []struct{ queue, task string }{{"q1", "zz"}, {"nope", "a"}} {
			err := db.Tx(ctx, func(q store.Querier) error {
				_, err := db.MoveQueueEntry(ctx, q, c.queue, c.task, to(0))
				return err
			})
			if !errors.Is(err, store.ErrNotQueued) && !errors.Is(err, store.ErrNotFound) {
				t.Errorf("move %s in %s: %v", c.task, c.queue, err)
			}
		}
	})
}

func TestQueueRemoveAndClear(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		addQueues(t, db, "q1", "q2", "q3")
		enqueue(t, db, "q1", "a", "b", "c")
		enqueue(t, db, "q2", "a", "x")
		enqueue(t, db, "q3", "a", "y")

		var removed bool
		var n int
		mustTx(t, db, func(q store.Querier) error {
			var err error
			if removed, err = db.RemoveQueueEntry(ctx, q, "q1", "b", jsonx.Now()); err != nil {
				return err
			}
			n, err = db.RemoveTaskFromQueues(ctx, q, "a", "q1", jsonx.Now()) // keeps q1
			return err
		})
		if !removed || n != 2 {
			t.Fatalf("removed b: %v, a removed from %d queues", removed, n)
		}
		mustTx(t, db, func(q store.Querier) error {
			var err error
			removed, err = db.RemoveQueueEntry(ctx, q, "nope", "b", jsonx.Now())
			return err
		})
		if removed {
			t.Fatal("removed from an unknown queue")
		}
		sizes, err := db.QueueSizes(ctx, db.Read(), []string{"q1", "q2", "q3"})
		if err != nil || !reflect.DeepEqual(sizes, map[string]int{"q1": 2, "q2": 1, "q3": 1}) {
			t.Fatalf("sizes %v, %v", sizes, err)
		}
		mustTx(t, db, func(q store.Querier) error {
			var err error
			n, err = db.RemoveTasksFromAllQueues(ctx, q, []string{"x", "y"}, jsonx.Now())
			return err
		})
		if n != 2 {
			t.Fatalf("removed %d entries of x and y", n)
		}
		var cleared []string
		mustTx(t, db, func(q store.Querier) error {
			var err error
			cleared, err = db.ClearQueue(ctx, q, "q1", jsonx.Now())
			return err
		})
		if !reflect.DeepEqual(cleared, []string{"a", "c"}) {
			t.Fatalf("cleared %v", cleared)
		}
		of, err := db.QueueEntriesOf(ctx, db.Read(), []string{"q1", "q2"}, 1)
		if err != nil || len(of) != 0 {
			t.Fatalf("entries left: %v, %v", of, err)
		}
	})
}
