package transfer_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
	"github.com/trove-ml/trove/internal/transfer"
)

// filesCall sends one request to a files port.
func filesCall(t *testing.T, url, method, path, token string, body []byte, ctype string) []byte {
	t.Helper()
	req, err := http.NewRequest(method, url+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, out)
	}
	return out
}

// upload stores content at path as the SDK does (one multipart part).
func upload(t *testing.T, url, token, path string, content []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, path, path))
	h.Set("Content-Type", "application/octet-stream")
	w, _ := mw.CreatePart(h)
	_, _ = w.Write(content)
	_ = mw.Close()
	filesCall(t, url, http.MethodPost, "/", token, buf.Bytes(), mw.FormDataContentType())
}

const ingestBatch = 100

// ingest sends batches of log events until stop closes; acked counts the
// events of batches the server acknowledged. It runs beside the test, so
// it reports a failure on errc instead of failing the test itself.
func ingest(e *testenv.Env, task string, stop <-chan struct{}, acked *atomic.Int64, errc chan<- error) {
	for n := 0; ; n++ {
		select {
		case <-stop:
			errc <- nil
			return
		default:
		}
		lines := make([]string, ingestBatch)
		for i := range lines {
			lines[i] = fmt.Sprintf(`{"type":"log","task":%q,"msg":"event %d","level":"info","timestamp":%d}`, task, n*ingestBatch+i, 1700000000000+n)
		}
		req, _ := http.NewRequest(http.MethodPost, e.URL+"/events.add_batch", strings.NewReader(strings.Join(lines, "\n")))
		req.Header.Set("Authorization", "Bearer "+e.Token)
		req.Header.Set("Content-Type", "application/json-lines")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			errc <- err
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			errc <- fmt.Errorf("events.add_batch: HTTP %d", resp.StatusCode)
			return
		}
		acked.Add(ingestBatch)
	}
}

// TestBackupWhileIngesting backs up a SQLite store while events stream in,
// restores it into an empty data dir and checks that every event
// acknowledged before the backup began is there, and the stored files.
func TestBackupWhileIngesting(t *testing.T) {
	e := testenv.New(t, "sqlite")
	fsrv := httptest.NewServer(e.App.FilesHandler)
	defer fsrv.Close()
	stored := map[string][]byte{
		"proj/task.abc/artifacts/data/data.csv":  []byte("a,b\n1,2\n"),
		"proj/task.abc/models/model.bin":         bytes.Repeat([]byte{7}, 100_000),
		"proj/task.abc/metrics/img/v/img_0.jpeg": []byte("jpeg"),
	}
	for p, c := range stored {
		upload(t, fsrv.URL, e.Token, p, c)
	}
	task := e.Call(t, "tasks.create", obj{"name": "ingesting", "type": "training"}).OK(t).Str("id")

	var acked atomic.Int64
	stop := make(chan struct{})
	errc := make(chan error, 1)
	go ingest(e, task, stop, &acked, errc)
	// waitAcked waits (bounded) until n events are acknowledged or the
	// ingest failed.
	waitAcked := func(n int64) {
		deadline := time.Now().Add(60 * time.Second)
		for acked.Load() < n && len(errc) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d events acknowledged after 60 s", acked.Load(), n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitAcked(20 * ingestBatch)
	before := acked.Load()
	archive := filepath.Join(t.TempDir(), "backup.tgz")
	loc, _ := store.Locate(e.App.Cfg.DB, e.App.Cfg.DataDir)
	st, err := transfer.Backup(context.Background(), loc, e.App.Cfg.DataDir, archive)
	// the ingest goes on after the backup
	waitAcked(acked.Load() + 2*ingestBatch)
	close(stop)
	if ierr := <-errc; ierr != nil {
		t.Fatalf("ingest: %v", ierr)
	}
	if err != nil {
		t.Fatalf("backup: %v", err)
	}
	if st.Files != len(stored) {
		t.Fatalf("backup holds %d files, want %d", st.Files, len(stored))
	}

	restored := filepath.Join(t.TempDir(), "restored")
	rloc, _ := store.Locate("", restored)
	if _, err := transfer.Restore(context.Background(), archive, rloc, restored); err != nil {
		t.Fatalf("restore: %v", err)
	}
	r := testenv.New(t, "sqlite", func(c *config.Config) { c.DataDir = restored })
	total := int64(r.Call(t, "events.get_task_log", obj{"task": task, "batch_size": 1}).OK(t).Num("total"))
	if total < before {
		t.Fatalf("restored store has %d events, %d were acknowledged before the backup", total, before)
	}
	if total%ingestBatch != 0 {
		t.Fatalf("restored store has %d events: part of a batch", total)
	}
	rsrv := httptest.NewServer(r.App.FilesHandler)
	defer rsrv.Close()
	for p, c := range stored {
		if got := filesCall(t, rsrv.URL, http.MethodGet, "/"+p, r.Token, nil, ""); !bytes.Equal(got, c) {
			t.Fatalf("restored %s: %d bytes, want %d", p, len(got), len(c))
		}
	}
	t.Logf("acknowledged before backup: %d, restored: %d, after: %d", before, total, acked.Load())

	// A second restore into the now used data dir is refused.
	if _, err := transfer.Restore(context.Background(), archive, rloc, restored); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("restore into a used data dir: %v", err)
	}
}

// TestBackupOfPostgresPointsToPgDump checks the PostgreSQL answer of both
// commands.
func TestBackupOfPostgresPointsToPgDump(t *testing.T) {
	loc, err := store.Locate("postgres://u:secret@localhost/trove", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := transfer.Backup(context.Background(), loc, dir, filepath.Join(dir, "b.tgz")); err == nil || !strings.Contains(err.Error(), "pg_dump") {
		t.Fatalf("backup of postgres: %v", err)
	}
	if _, err := transfer.Restore(context.Background(), filepath.Join(dir, "b.tgz"), loc, dir); err == nil || !strings.Contains(err.Error(), "pg_restore") {
		t.Fatalf("restore of postgres: %v", err)
	}
}
