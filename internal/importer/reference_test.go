package importer_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/importer"
	"github.com/trove-ml/trove/internal/testenv"
)

// eventPages answers events.get_task_events for a batch size and scroll
// id: the page, the total and the next scroll id.
type eventPages func(batch int, scroll string) (page []obj, total int, next string)

// fakeReference answers like a reference server holding one task, with
// its events served by pages.
func fakeReference(t *testing.T, pages eventPages) string {
	t.Helper()
	task := obj{"id": "reftask", "name": "ref", "type": "training", "status": "completed", "company": "c", "user": "u",
		"created": "2024-01-02T03:04:05.678000+00:00", "last_update": "2024-01-02T03:04:06.000000+00:00"}
	answers := map[string]any{
		"auth.login":       obj{"token": "t"},
		"projects.get_all": obj{"projects": []obj{}},
		"queues.get_all":   obj{"queues": []obj{}},
		"models.get_all":   obj{"models": []obj{}},
		"tasks.get_all":    obj{"tasks": []obj{{"id": "reftask"}}},
		"tasks.get_by_id":  obj{"task": task},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op := strings.TrimPrefix(r.URL.Path, "/")
		data, ok := answers[op]
		if op == "events.get_task_events" {
			var req struct {
				BatchSize int    `json:"batch_size"`
				ScrollID  string `json:"scroll_id"`
			}
			_ = json.NewDecoder(r.Body).Decode(&req)
			page, total, next := pages(req.BatchSize, req.ScrollID)
			data, ok = obj{"events": page, "returned": len(page), "total": total, "scroll_id": next}, true
		}
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(obj{"meta": obj{"result_code": 400, "result_subcode": 0, "result_msg": "unknown " + op}, "data": obj{}})
			return
		}
		_ = json.NewEncoder(w).Encode(obj{"meta": obj{"result_code": 200, "result_subcode": 0, "result_msg": "OK"}, "data": data})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// logEvent is a log line of reftask at an iteration.
func logEvent(iter int, msg string) obj {
	return obj{"type": "log", "task": "reftask", "iter": iter, "msg": msg, "level": "info", "timestamp": 1704164645000 + iter,
		"worker": "w", "@timestamp": "2024-01-02T03:04:05.700Z"}
}

func importFake(t *testing.T, pages eventPages) (*importer.Report, *testenv.Env) {
	t.Helper()
	url := fakeReference(t, pages)
	target := testenv.New(t, "sqlite")
	ctx := context.Background()
	c, err := importer.Dial(ctx, url, "k", "s")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := importer.Run(ctx, importer.Options{Source: c, DB: target.App.DB, Company: auth.DefaultCompanyID})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	return rep, target
}

func eventTotal(t *testing.T, e *testenv.Env) float64 {
	t.Helper()
	return e.Call(t, "events.get_task_events", obj{"task": "reftask"}).OK(t).Num("total")
}

// TestImportScrollThatStartsOver covers the reference's event scroll,
// which takes a cursor at iteration 0 for no cursor and so serves its
// first page again: harmless when that page held every event; otherwise
// the events are read again in the largest pages, which pass iteration 0
// when its events fit in one; when they do not, the task is reported.
func TestImportScrollThatStartsOver(t *testing.T) {
	iter0 := []obj{logEvent(0, "a"), logEvent(0, "b")}
	all := append(append([]obj{}, iter0...), logEvent(1, "c"), logEvent(2, "d"))

	t.Run("one page", func(t *testing.T) {
		rep, target := importFake(t, func(int, string) ([]obj, int, string) { return iter0, 2, "again" })
		if len(rep.Failures) > 0 || rep.Events != 2 || eventTotal(t, target) != 2 {
			t.Fatalf("failures %v, %d events written, %v stored", rep.Failures, rep.Events, eventTotal(t, target))
		}
		got := target.Call(t, "tasks.get_by_id", obj{"task": "reftask"}).OK(t)
		if lu := got.Str("task.last_update"); !strings.HasPrefix(lu, "2024-01-02T03:04:06") || got.Str("task.company") != auth.DefaultCompanyID {
			t.Fatalf("the task is not the source's in the default company: %s", got.Raw)
		}
	})
	t.Run("larger pages pass", func(t *testing.T) {
		rep, target := importFake(t, func(batch int, scroll string) ([]obj, int, string) {
			switch {
			case batch < 10000:
				return iter0, 4, "again"
			case scroll == "":
				return all, 4, "end"
			}
			return nil, 4, "end"
		})
		if len(rep.Failures) > 0 || rep.Events != 4 || eventTotal(t, target) != 4 {
			t.Fatalf("failures %v, %d events written, %v stored", rep.Failures, rep.Events, eventTotal(t, target))
		}
	})
	t.Run("too many at iteration 0", func(t *testing.T) {
		rep, target := importFake(t, func(int, string) ([]obj, int, string) { return iter0, 4, "again" })
		if len(rep.Failures) != 1 || !strings.Contains(rep.Failures[0], "task reftask: the source's event scroll starts over after iteration 0") ||
			eventTotal(t, target) != 2 {
			t.Fatalf("failures %v, %v stored", rep.Failures, eventTotal(t, target))
		}
	})
}
