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

// restartingSource answers like a reference server whose event scroll
// starts over when its cursor sits at iteration 0: every page of
// events.get_task_events is the first one.
func restartingSource(t *testing.T) (string, *int) {
	t.Helper()
	calls := 0
	task := obj{"id": "reftask", "name": "ref", "type": "training", "status": "completed", "company": "c", "user": "u",
		"created": "2024-01-02T03:04:05.678000+00:00", "last_update": "2024-01-02T03:04:06.000000+00:00"}
	page := []obj{
		{"type": "log", "task": "reftask", "iter": 0, "msg": "a", "level": "info", "timestamp": 1704164645000, "worker": "w", "@timestamp": "2024-01-02T03:04:05.700Z"},
		{"type": "log", "task": "reftask", "iter": 0, "msg": "b", "level": "info", "timestamp": 1704164645001, "worker": "w", "@timestamp": "2024-01-02T03:04:05.700Z"},
	}
	answers := map[string]any{
		"auth.login":       obj{"token": "t"},
		"projects.get_all": obj{"projects": []obj{}},
		"queues.get_all":   obj{"queues": []obj{}},
		"models.get_all":   obj{"models": []obj{}},
		"tasks.get_all":    obj{"tasks": []obj{task}},
		"tasks.get_by_id":  obj{"task": task},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op := strings.TrimPrefix(r.URL.Path, "/")
		data, ok := answers[op]
		if op == "events.get_task_events" {
			calls++
			data, ok = obj{"events": page, "returned": len(page), "total": len(page), "scroll_id": "again"}, true
		}
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(obj{"meta": obj{"result_code": 400, "result_subcode": 0, "result_msg": "unknown " + op}, "data": obj{}})
			return
		}
		_ = json.NewEncoder(w).Encode(obj{"meta": obj{"result_code": 200, "result_subcode": 0, "result_msg": "OK"}, "data": data})
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &calls
}

// TestImportStopsAtARestartingScroll checks that a scroll which starts
// over (the reference's cursor at iteration 0) ends the task's events
// instead of importing them forever.
func TestImportStopsAtARestartingScroll(t *testing.T) {
	url, calls := restartingSource(t)
	target := testenv.New(t, "sqlite")
	ctx := context.Background()
	c, err := importer.Dial(ctx, url, "k", "s")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := importer.Run(ctx, importer.Options{Source: c, DB: target.App.DB, Company: auth.DefaultCompanyID})
	if err != nil || len(rep.Failures) > 0 {
		t.Fatalf("import: %v %v", err, rep.Failures)
	}
	if rep.Events != 2 || *calls != 2 {
		t.Fatalf("wrote %d events in %d scroll calls, want 2 in 2", rep.Events, *calls)
	}
	log := target.Call(t, "events.get_task_log", obj{"task": "reftask"}).OK(t)
	if got := len(log.List("events")); got != 2 {
		t.Fatalf("the imported task has %d log events, want 2: %s", got, log.Raw)
	}
	if got := target.Call(t, "tasks.get_by_id", obj{"task": "reftask"}).OK(t).Str("task.last_update"); !strings.HasPrefix(got, "2024-01-02T03:04:06") {
		t.Fatalf("last_update %q, want the source's", got)
	}
}
