package tasks_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

var ctx = context.Background()

// clockStart is the fixed time of every test environment.
var clockStart = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// removed records the files a cascade asked to remove.
type removed struct {
	mu   sync.Mutex
	urls []string
}

func (r *removed) RemoveStoredFiles(_ context.Context, _ string, urls []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.urls = append(r.urls, urls...)
}

// eachStore runs fn on a fresh store of every test backend, with a domain
// environment whose clock stands still at clockStart.
func eachStore(t *testing.T, fn func(t *testing.T, d *domain.Env, files *removed)) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		files := &removed{}
		fn(t, &domain.Env{DB: db, Now: func() time.Time { return clockStart }, Files: files}, files)
	})
}

// putTask stores a task of company c1 in the given status.
func putTask(t *testing.T, d *domain.Env, id, status string, edit ...func(*store.Task)) *store.Task {
	t.Helper()
	created := jsonx.Time{Time: clockStart.Add(-time.Hour)}
	tk := &store.Task{ID: id, Company: "c1", User: "u1", Name: id, Type: "training", Status: status,
		Created: created, LastUpdate: created, LastChange: created}
	tk.Normalize()
	for _, e := range edit {
		e(tk)
	}
	tx(t, d, func(q store.Querier) error { return d.DB.Tasks().Insert(ctx, q, tk) })
	return tk
}

// getTask reads a task back.
func getTask(t *testing.T, d *domain.Env, id string) *store.Task {
	t.Helper()
	tk, err := d.DB.Tasks().Get(ctx, d.DB.Read(), id)
	if err != nil {
		t.Fatalf("task %s: %v", id, err)
	}
	return tk
}

// tx runs fn in a transaction and fails the test on error.
func tx(t *testing.T, d *domain.Env, fn func(q store.Querier) error) {
	t.Helper()
	if err := d.DB.Tx(ctx, fn); err != nil {
		t.Fatal(err)
	}
}

// inTx runs fn in a transaction and returns its error.
func inTx(d *domain.Env, fn func(q store.Querier) error) error { return d.DB.Tx(ctx, fn) }
