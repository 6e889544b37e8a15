package importer_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/files"
	"github.com/trove-ml/trove/internal/importer"
	"github.com/trove-ml/trove/internal/testenv"
)

// reads are the calls whose answers must be the same on the source and
// on the target (apart from the rewritten file URLs).
func reads(fx *fixture) [][2]any {
	out := [][2]any{
		{"projects.get_all", obj{"order_by": []string{"name"}, "search_hidden": true}},
		{"projects.get_all_ex", obj{"order_by": []string{"name"}, "include_stats": true, "search_hidden": true}},
		{"tasks.get_all", obj{"order_by": []string{"name"}, "search_hidden": true}},
		{"tasks.get_all_ex", obj{"order_by": []string{"name"}, "search_hidden": true}},
		{"models.get_all", obj{}},
		{"models.get_all_ex", obj{}},
		{"queues.get_all", obj{}},
		{"queues.get_all_ex", obj{}},
		{"projects.get_hyper_parameters", obj{}},
	}
	for _, task := range fx.tasks {
		out = append(out,
			[2]any{"tasks.get_by_id", obj{"task": task}},
			[2]any{"tasks.get_hyper_params", obj{"tasks": []string{task}}},
			[2]any{"tasks.get_configurations", obj{"tasks": []string{task}}},
			[2]any{"events.get_task_log", obj{"task": task, "batch_size": 500}},
			[2]any{"events.scalar_metrics_iter_histogram", obj{"task": task}},
			[2]any{"events.scalar_metrics_iter_raw", obj{"task": task, "metric": obj{"metric": "loss", "variants": []string{"train"}}, "count_total": true}},
			[2]any{"events.get_task_plots", obj{"task": task}},
			[2]any{"events.debug_images", obj{"metrics": []obj{{"task": task}}}},
			[2]any{"events.get_task_events", obj{"task": task, "batch_size": 1000}},
			[2]any{"events.get_scalar_metrics_and_variants", obj{"task": task}},
			[2]any{"events.get_task_metrics", obj{"tasks": []string{task}}},
			[2]any{"events.get_vector_metrics_and_variants", obj{"task": task}},
			[2]any{"events.get_task_latest_scalar_values", obj{"task": task}},
		)
	}
	for _, m := range fx.models {
		out = append(out,
			[2]any{"models.get_by_id", obj{"model": m}},
			[2]any{"events.get_task_events", obj{"task": m, "model_events": true}},
			[2]any{"events.scalar_metrics_iter_histogram", obj{"task": m, "model_events": true}},
		)
	}
	return out
}

// answers returns the data part of every read; replace rewrites the
// source's file URLs into the target's.
func answers(t *testing.T, e *testenv.Env, fx *fixture, replace func(string) string) map[string]string {
	t.Helper()
	out := e.Answers(t, reads(fx))
	for k, v := range out {
		out[k] = replace(v)
	}
	return out
}

// runImport imports src into target's store and file storage.
func runImport(t *testing.T, src *source, target *testenv.Env) *importer.Report {
	t.Helper()
	rep := importFrom(t, src.URL, src, target)
	if len(rep.Failures) > 0 {
		t.Fatalf("import failures: %s", strings.Join(rep.Failures, "\n"))
	}
	return rep
}

// importFrom imports from the API at apiURL (src or a proxy before it).
func importFrom(t *testing.T, apiURL string, src *source, target *testenv.Env) *importer.Report {
	t.Helper()
	ctx := context.Background()
	c, err := importer.Dial(ctx, apiURL, testenv.AdminKey, testenv.AdminSecret)
	if err != nil {
		t.Fatal(err)
	}
	storage, spool, err := files.OpenStorage(ctx, target.App.Cfg.Files, target.App.Cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	rep, err := importer.Run(ctx, importer.Options{Source: c, DB: target.App.DB, Storage: storage, Spool: spool,
		SourceFiles: []string{src.Files}, FilesURL: target.App.Deps.FilesURL, Company: auth.DefaultCompanyID, Progress: &progress})
	if err != nil {
		t.Fatalf("import: %v\n%s", err, progress.String())
	}
	for _, kind := range []string{"projects", "queues", "models", "tasks"} {
		if !strings.Contains(progress.String(), kind) {
			t.Errorf("no progress bar for %s in %q", kind, progress.String())
		}
	}
	return rep
}

func counts(rep *importer.Report) map[string][2]int {
	out := map[string][2]int{}
	for _, c := range rep.Counts {
		out[c.Kind] = [2]int{c.Imported, c.Skipped}
	}
	return out
}

// compare fails on every read that answers differently on the source
// (its file URLs rewritten) and on the target.
func compare(t *testing.T, src *source, target *testenv.Env, fx *fixture) map[string]string {
	t.Helper()
	toTarget := func(s string) string { return strings.ReplaceAll(s, src.Files, target.App.Deps.FilesURL) }
	before := answers(t, src.Env, fx, toTarget)
	got := answers(t, target, fx, func(s string) string { return s })
	for k, w := range before {
		if g := got[k]; g != w {
			t.Errorf("%s differs:\nsource: %s\ntarget: %s", k, around(w, g), around(g, w))
		}
	}
	return got
}

// TestImportTroveToTrove imports a Trove filled like the SDK does into a
// fresh store on each backend: every read answers the same on both
// servers apart from the file URLs, the files are served by the target,
// and a second import finds everything in place.
func TestImportTroveToTrove(t *testing.T) {
	src := newSource(t)
	fx := src.populate(t)
	testenv.Each(t, func(t *testing.T, target *testenv.Env) {
		rep := runImport(t, src, target)
		want := map[string][2]int{"projects": {2, 0}, "queues": {2, 0}, "models": {1, 0}, "tasks": {3, 0}, "entries": {1, 0}}
		if got := counts(rep); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("first import counts %v, want %v", got, want)
		}
		if rep.Files != len(fx.files) || rep.Events == 0 {
			t.Errorf("first import copied %d files (want %d) and %d events", rep.Files, len(fx.files), rep.Events)
		}
		got := compare(t, src, target, fx)
		checkFiles(t, src, target, fx)

		again := runImport(t, src, target)
		want = map[string][2]int{"projects": {0, 2}, "queues": {0, 2}, "models": {0, 1}, "tasks": {0, 3}, "entries": {0, 1}}
		if got := counts(again); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("second import counts %v, want %v", got, want)
		}
		if again.Events != 0 || again.Files != 0 {
			t.Errorf("second import wrote %d events and %d files, want none", again.Events, again.Files)
		}
		after := answers(t, target, fx, func(s string) string { return s })
		for k, w := range got {
			if after[k] != w {
				t.Errorf("%s changed by the second import:\nfirst:  %s\nsecond: %s", k, w, after[k])
			}
		}
	})
}

// checkFiles reads every copied file from the target's file server.
func checkFiles(t *testing.T, src *source, target *testenv.Env, fx *fixture) {
	t.Helper()
	srv := httptest.NewServer(target.App.FilesHandler)
	defer srv.Close()
	for u, content := range fx.files {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+strings.TrimPrefix(u, src.Files), nil)
		req.Header.Set("Authorization", "Bearer "+target.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(b) != string(content) {
			t.Errorf("file %s on the target: %d %q, want %q", u, resp.StatusCode, b, content)
		}
	}
}

// around is the part of a where it starts to differ from b.
func around(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[max(0, i-150):min(len(a), i+150)]
}

// failingProxy forwards to the source's API but answers an error to reads
// of the events of one task.
func failingProxy(t *testing.T, src *source, task string) string {
	t.Helper()
	fwd := func(base string, fail func(*http.Request, []byte) bool) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			if fail(r, body) {
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(`{"meta":{"result_code":500,"result_subcode":0,"result_msg":"source trouble"},"data":{}}`))
				return
			}
			req, _ := http.NewRequest(r.Method, base+r.URL.Path, bytes.NewReader(body))
			req.Header = r.Header.Clone()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				w.WriteHeader(http.StatusBadGateway)
				return
			}
			defer resp.Body.Close()
			for k, v := range resp.Header {
				w.Header()[k] = v
			}
			w.WriteHeader(resp.StatusCode)
			_, _ = io.Copy(w, resp.Body)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	return fwd(src.URL, func(r *http.Request, body []byte) bool {
		return strings.HasSuffix(r.URL.Path, "events.get_task_events") && bytes.Contains(body, []byte(task))
	})
}

// TestImportSourceErrors checks that a source failing on one task's
// events and missing one file reports those and imports the rest, and
// that a rerun against a healthy source completes the import.
func TestImportSourceErrors(t *testing.T) {
	src := newSource(t)
	fx := src.populate(t)
	// the artifact of a task other than the one whose events fail
	var badFile string
	for u := range fx.files {
		if strings.Contains(u, fx.tasks[0]+"/artifacts/") {
			badFile = u
		}
	}
	api := failingProxy(t, src, fx.tasks[1])
	ctx := context.Background()
	srcStorage, _, err := files.OpenStorage(ctx, src.App.Cfg.Files, src.App.Cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	badPath := strings.TrimPrefix(badFile, src.Files+"/")
	if err := srcStorage.Delete(ctx, files.Key{Company: auth.DefaultCompanyID, Path: badPath}); err != nil {
		t.Fatal(err)
	}
	target := testenv.New(t, "sqlite")
	c, err := importer.Dial(ctx, api, testenv.AdminKey, testenv.AdminSecret)
	if err != nil {
		t.Fatal(err)
	}
	storage, spool, err := files.OpenStorage(ctx, target.App.Cfg.Files, target.App.Cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := importer.Run(ctx, importer.Options{Source: c, DB: target.App.DB, Storage: storage, Spool: spool,
		SourceFiles: []string{src.Files}, FilesURL: target.App.Deps.FilesURL, Company: auth.DefaultCompanyID})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	failures := strings.Join(rep.Failures, "\n")
	if len(rep.Failures) != 2 || !strings.Contains(failures, "task "+fx.tasks[1]+": events.get_task_events: the source answered 500") ||
		!strings.Contains(failures, "source trouble") || !strings.Contains(failures, badFile+": GET "+badFile+": HTTP 404") {
		t.Fatalf("failures: %s", failures)
	}
	if got := counts(rep)["tasks"]; got != [2]int{2, 0} {
		t.Errorf("tasks imported/skipped %v, want [2 0] and one failed", got)
	}

	// the healthy source: the failed task is imported again, and the
	// task whose artifact was missing (imported with the source's URL) is
	// imported again with its file; the rest is in place
	src.upload(t, badPath, fx.files[badFile])
	again := runImport(t, src, target)
	if got := counts(again)["tasks"]; got != [2]int{2, 1} {
		t.Errorf("rerun imported/skipped %v tasks, want [2 1]: the failed one and the one missing a file", got)
	}
	compare(t, src, target, fx)
}
