package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/config"
)

// benchServer is a Trove started in-process for a benchmark, with an admin
// token.
type benchServer struct {
	App   *app.App
	URL   string
	Token string
	srv   *httptest.Server
	dir   string
}

// startServer starts Trove on SQLite in a temp dir, or on db (a postgres://
// URL of an empty database), and logs in.
func startServer(db string) (*benchServer, error) {
	a, dir, err := newBenchApp(db)
	if err != nil {
		return nil, err
	}
	b := &benchServer{App: a, srv: httptest.NewServer(a.Handler), dir: dir}
	b.URL = b.srv.URL
	login, _ := http.NewRequest(http.MethodPost, b.URL+"/auth.login", nil)
	login.SetBasicAuth("BENCHKEY", "bench-secret")
	var env struct {
		Data map[string]any `json:"data"`
	}
	if err := doJSON(login, &env); err != nil {
		b.Close()
		return nil, err
	}
	b.Token, _ = env.Data["token"].(string)
	return b, nil
}

// Close stops the server and removes its data.
func (b *benchServer) Close() {
	b.srv.Close()
	b.App.Close()
	os.RemoveAll(b.dir)
}

// newBenchApp builds Trove with the benchmark admin key, its data in a
// new temp dir (returned; the caller removes it).
func newBenchApp(db string) (*app.App, string, error) {
	dir, err := os.MkdirTemp("", "trove-bench-")
	if err != nil {
		return nil, "", err
	}
	cfg := config.Defaults()
	cfg.DataDir, cfg.DB = dir, db
	cfg.AdminKey, cfg.AdminSecret = "BENCHKEY", "bench-secret"
	a, err := app.New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		os.RemoveAll(dir)
		return nil, "", err
	}
	return a, dir, nil
}
