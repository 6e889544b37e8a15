package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/files"
	"github.com/trove-ml/trove/internal/testenv"
)

// storeFault is a fault of a backend's store that a test turns on and off:
// PostgreSQL reached through a proxy that is cut (connections dropped and
// refused), SQLite on a small tmpfs that is filled.
type storeFault struct {
	on, off func()
	// cause is the fault's wording in the 503's message.
	cause string
	// readsFail: reads fail too (a cut database), not only writes (a full
	// disk, where SQLite still reads).
	readsFail bool
}

// faultyEnv starts an environment on backend whose store can be made to
// fail. On SQLite the test is skipped, saying why, where a tmpfs cannot
// be mounted.
func faultyEnv(t *testing.T, backend string) (*testenv.Env, *storeFault) {
	t.Helper()
	if backend == "postgres" {
		p := testenv.NewProxy(t)
		e := testenv.New(t, backend, testenv.WithPostgresProxy(t, p))
		return e, &storeFault{on: p.Cut, off: p.Restore, cause: "the database is unreachable", readsFail: true}
	}
	dir := testenv.SmallDisk(t, 24)
	e := testenv.New(t, backend, testenv.WithDataDir(dir))
	f := &storeFault{cause: "the database's disk is full"}
	var free func()
	f.on = func() { free = testenv.FillDisk(t, dir) }
	f.off = func() { free() }
	return e, f
}

// scalarLines are n scalar events of task as a JSON-lines body; the
// padding makes the batch need new database pages.
func scalarLines(task string, from, n int) string {
	pad := strings.Repeat("x", 200)
	lines := make([]string, n)
	for i := range lines {
		b, _ := json.Marshal(map[string]any{"type": "training_stats_scalar", "task": task,
			"metric": "loss " + pad, "variant": fmt.Sprintf("v%d", (from+i)%50), "iter": (from + i) / 50, "value": float64(from + i)})
		lines[i] = string(b)
	}
	return strings.Join(lines, "\n")
}

func addBatch(t *testing.T, e *testenv.Env, body string) *testenv.Response {
	t.Helper()
	return e.Do(t, "events.add_batch", body, func(h http.Header) {
		h.Set("Authorization", "Bearer "+e.Token)
		h.Set("Content-Type", "application/json-lines")
	})
}

// wantRetryable fails unless r is the store fault's 503: the envelope's
// 503/0, a Retry-After and a message naming the cause.
func wantRetryable(t *testing.T, what string, r *testenv.Response, cause string) {
	t.Helper()
	if r.Status != 503 || r.Meta == nil || r.Meta["result_code"] != float64(503) || r.Meta["result_subcode"] != float64(0) {
		t.Fatalf("%s: want 503/0, got HTTP %d: %s", what, r.Status, r.Raw)
	}
	if ra := r.Header.Get("Retry-After"); ra != "2" {
		t.Fatalf("%s: Retry-After %q, want 2", what, ra)
	}
	if !strings.Contains(r.Msg(), cause) {
		t.Fatalf("%s: message %q does not name the cause %q", what, r.Msg(), cause)
	}
}

// eventually repeats call until it answers 200, for at most 20 s (a
// pool's broken connection may fail one more call after a restore, with
// the same 503).
func eventually(t *testing.T, what string, call func() *testenv.Response) *testenv.Response {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := call()
		if r.Status == 200 {
			return r
		}
		if r.Status != 503 || time.Now().After(deadline) {
			t.Fatalf("%s after the fault ended: HTTP %d: %s", what, r.Status, r.Raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestStoreFaultsAnswer503: while the database is unreachable
// (PostgreSQL) or its disk is full (SQLite), reads, writes and the event
// ingest (events.add_batch through the group commit) answer 503 with
// Retry-After and a message naming the cause, never a 500 or a 200 for
// an unstored batch; once the fault ends the same calls succeed and the
// retried batch is stored whole.
func TestStoreFaultsAnswer503(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			e, f := faultyEnv(t, backend)
			task := e.Call(t, "tasks.create", map[string]any{"name": "faulty", "type": "training"}).OK(t).Str("id")
			const n = 2000

			f.on()
			comment := strings.Repeat("c", 60000)
			from := 0
			calls := []struct {
				name  string
				write bool
				call  func() *testenv.Response
			}{
				{"events.add_batch", true, func() *testenv.Response { return addBatch(t, e, scalarLines(task, from, n)) }},
				{"tasks.create", true, func() *testenv.Response {
					return e.Call(t, "tasks.create", map[string]any{"name": "during the fault", "type": "training", "comment": comment})
				}},
				{"tasks.get_all", false, func() *testenv.Response { return e.Call(t, "tasks.get_all", map[string]any{"id": []string{task}}) }},
				{"tasks.get_by_id", false, func() *testenv.Response { return e.Call(t, "tasks.get_by_id", map[string]any{"task": task}) }},
			}
			for _, c := range calls {
				if !c.write && !f.readsFail {
					c.call().OK(t) // a full disk still reads
					continue
				}
				// A full disk may still take a few writes (into pages the
				// database or its log already hold); it is finite, so a
				// write fails within a bounded number of tries.
				var r *testenv.Response
				for try := 0; ; try++ {
					if r = c.call(); r.Status != 200 || try == 400 {
						break
					}
					if c.name == "events.add_batch" {
						from += n
					}
				}
				wantRetryable(t, c.name, r, f.cause)
			}
			f.off()
			for _, c := range calls {
				r := eventually(t, c.name, c.call)
				if c.name == "events.add_batch" && r.Num("added") != n {
					t.Fatalf("the retried batch: added %v of %d: %s", r.Num("added"), n, r.Raw)
				}
			}
			reported := from + n
			// every scalar of the retried batch is stored
			r := e.Call(t, "events.scalar_metrics_iter_histogram", map[string]any{"task": task, "samples": 6000}).OK(t)
			points := 0
			for _, m := range r.Data {
				for _, v := range m.(map[string]any) {
					points += len(v.(map[string]any)["x"].([]any))
				}
			}
			if points != reported {
				t.Fatalf("stored %d of %d scalars", points, reported)
			}
		})
	}
}

// uploadStatus posts body to path on the file server and returns the
// status and Retry-After.
func uploadStatus(t *testing.T, e *testenv.Env, files *httptest.Server, path string, body []byte) (int, string, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, err := mw.CreateFormFile(path, "blob")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write(body)
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, files.URL+"/", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+e.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(msg)
}

// TestUploadOnFullDisk: an upload to a full disk is held (the SDK retries
// a failed upload only a few times at once) and stored when space is
// freed within the hold; past the hold it answers 503 with Retry-After
// (a 507 no client retries).
func TestUploadOnFullDisk(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			dir := testenv.SmallDisk(t, 24)
			e := testenv.New(t, backend, testenv.WithDataDir(dir))
			fsrv := httptest.NewServer(e.App.FilesHandler)
			defer fsrv.Close()
			body := bytes.Repeat([]byte("artifact "), 100000) // 900 kB

			defer files.SetFaultHold(time.Second)()
			free := testenv.FillDisk(t, dir)
			status, retry, msg := uploadStatus(t, e, fsrv, "/p/t/artifacts/a.bin", body)
			if status != 503 || retry != "2" || !strings.Contains(msg, "no space left") {
				t.Fatalf("upload to a full disk past the hold: %d, Retry-After %q, %q; want 503, 2, no space left", status, retry, msg)
			}

			// held: the upload waits while the disk is full (a hold of 60 s,
			// it has not answered after 1 s) and is stored once space is freed
			files.SetFaultHold(time.Minute)
			type answer struct {
				status int
				msg    string
			}
			done := make(chan answer, 1)
			go func() {
				status, _, msg := uploadStatus(t, e, fsrv, "/p/t/artifacts/b.bin", body)
				done <- answer{status, msg}
			}()
			select {
			case a := <-done:
				t.Fatalf("the upload to a full disk was not held: %d %q", a.status, a.msg)
			case <-time.After(time.Second):
			}
			free()
			if a := <-done; a.status != 200 {
				t.Fatalf("the held upload after space was freed: %d %q", a.status, a.msg)
			}
			if !stored(t, e, fsrv, "/p/t/artifacts/b.bin") {
				t.Fatal("the held upload is not served")
			}
		})
	}
}

// readyz gets /readyz of e.
func readyz(t *testing.T, e *testenv.Env) (int, string) {
	t.Helper()
	return get(t, e.URL+"/readyz")
}

// TestReadinessTellsTheTruth: /readyz answers 503 naming the cause while
// the data directory's filesystem has less than --min-free-mb free (an
// injected free-space source), while a start-up check marks the node not
// ready, and while the database is unreachable (PostgreSQL cut through a
// proxy); it is ready again once each ends. /healthz stays 200 throughout.
func TestReadinessTellsTheTruth(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			var p *testenv.Proxy
			var opts []testenv.Option
			if backend == "postgres" {
				p = testenv.NewProxy(t)
				opts = append(opts, testenv.WithPostgresProxy(t, p))
			}
			e := testenv.New(t, backend, opts...)
			if e.App.Cfg.MinFreeMB != 512 {
				t.Fatalf("default --min-free-mb %d, want 512", e.App.Cfg.MinFreeMB)
			}
			free := func(mb uint64) {
				e.App.SetFreeSpace(func(string) (uint64, error) { return mb << 20, nil })
			}
			type faultCase struct {
				name    string
				on, off func()
				want    string
			}
			cases := []faultCase{
				{"low disk", func() { free(100) }, func() { free(600) }, "100 MB free on the filesystem of " + e.App.Cfg.DataDir + ", below --min-free-mb 512"},
				{"disk at the threshold", func() { free(511) }, func() { free(512) }, "below --min-free-mb 512"},
				{"start-up check", func() { e.App.MarkNotReady("store failed its start-up check: x") }, e.App.MarkReady, "store failed its start-up check: x"},
			}
			if p != nil {
				cases = append(cases, faultCase{"database cut", p.Cut, p.Restore, "database unreachable"})
			}
			free(600)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					if code, body := readyz(t, e); code != 200 {
						t.Fatalf("before: /readyz %d %q", code, body)
					}
					c.on()
					code, body := readyz(t, e)
					if code != 503 || !strings.HasPrefix(body, "not ready: ") || !strings.Contains(body, c.want) {
						t.Fatalf("/readyz during %s: %d %q, want 503 naming %q", c.name, code, body, c.want)
					}
					if code, _ := get(t, e.URL+"/healthz"); code != 200 {
						t.Fatalf("/healthz during %s: %d", c.name, code)
					}
					c.off()
					// a pool's broken connection may fail one more check
					deadline := time.Now().Add(20 * time.Second)
					for {
						code, body := readyz(t, e)
						if code == 200 {
							break
						}
						if time.Now().After(deadline) {
							t.Fatalf("/readyz after %s ended: %d %q", c.name, code, body)
						}
						time.Sleep(100 * time.Millisecond)
					}
				})
			}
		})
	}
}

// TestUploadHeldThroughShortOutage: an upload whose authentication meets
// an unreachable database is held (files.FaultHold) and succeeds when the
// database is back within the hold, since the SDK retries a failed upload
// only a few times at once; past the hold it answers 503 with
// Retry-After naming the cause. PostgreSQL only: a SQLite store is not
// reached over a network (its full-disk case is TestUploadOnFullDisk).
func TestUploadHeldThroughShortOutage(t *testing.T) {
	if !slices.Contains(testenv.Backends(), "postgres") {
		t.Skip("PostgreSQL not configured (TROVE_TEST_POSTGRES)")
	}
	p := testenv.NewProxy(t)
	e := testenv.New(t, "postgres", testenv.WithPostgresProxy(t, p))
	fsrv := httptest.NewServer(e.App.FilesHandler)
	defer fsrv.Close()
	defer files.SetFaultHold(5 * time.Second)()

	t.Run("database back within the hold", func(t *testing.T) {
		p.Cut()
		restored := make(chan struct{})
		go func() {
			// restored once the held upload has met the fault (the
			// proxy refused the server's connections twice: it is
			// retrying); after 4 s it is restored anyway, within the hold
			p.WaitRefused(2, 4*time.Second)
			p.Restore()
			close(restored)
		}()
		status, _, msg := uploadStatus(t, e, fsrv, "/p/held/a.bin", []byte("held upload"))
		<-restored
		if status != 200 {
			t.Fatalf("upload held through the outage: %d %q", status, msg)
		}
		if !stored(t, e, fsrv, "/p/held/a.bin") {
			t.Fatal("the held upload is not stored")
		}
	})
	t.Run("database away past the hold", func(t *testing.T) {
		p.Cut()
		defer p.Restore()
		status, retry, msg := uploadStatus(t, e, fsrv, "/p/held/b.bin", []byte("not stored"))
		if status != 503 || retry != "2" || !strings.Contains(msg, "the database is unreachable") {
			t.Fatalf("upload with the database away: %d Retry-After %q %q", status, retry, msg)
		}
	})
}
