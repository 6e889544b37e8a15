// Package app wires Trove together and owns its lifecycle: open the store,
// bootstrap identities, serve the API and file ports, shut down in order.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzhttp"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// App is a configured, running-ready server.
type App struct {
	Cfg  config.Config
	Log  *slog.Logger
	DB   *store.DB
	Deps *api.Deps
	// Handler is the API port's handler.
	Handler http.Handler
	// Registry holds every registered operation.
	Registry *rpc.Registry
	// FilesHandler is the files port's handler (the built-in file server).
	FilesHandler http.Handler
	// Generated holds a key pair created on first start (printed once).
	Generated *auth.Generated
}

// New opens the store, bootstraps and builds the handlers.
func New(ctx context.Context, cfg config.Config, log *slog.Logger) (*App, error) {
	db, err := store.Open(ctx, cfg.DB, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	env := domain.Env{DB: db, Now: time.Now}
	secret, err := auth.TokenSecret(ctx, &env, cfg.TokenSecret)
	if err != nil {
		db.Close()
		return nil, err
	}
	gen, err := auth.Bootstrap(ctx, &env, cfg.AdminKey, cfg.AdminSecret, cfg.Users)
	if err != nil {
		db.Close()
		return nil, err
	}
	deps := &api.Deps{Env: env, Log: log, FilesURL: "http://" + publicAddr(cfg.FilesAddr, cfg.PublicHost)}
	deps.Auth = auth.New(&deps.Env, secret)
	authn := rpc.RequestAuth{Credentials: deps.Auth}
	fsvc, err := newFileServer(ctx, cfg, log, authn, deps.FilesURL)
	if err != nil {
		db.Close()
		return nil, err
	}
	deps.Files = fsvc
	deps.FileServer = fsvc
	reg := NewRegistry(deps)
	a := &App{Cfg: cfg, Log: log, DB: db, Deps: deps, Generated: gen, FilesHandler: fsvc, Registry: reg}
	srv := &rpc.Server{Registry: reg, Auth: authn, Log: log, MaxBody: int64(cfg.MaxBodyMB) << 20}
	if err := deps.RunStart(ctx); err != nil {
		db.Close()
		return nil, err
	}
	a.Handler = gzhttp.GzipHandler(srv)
	return a, nil
}

// Close releases the file storage and the store.
func (a *App) Close() error {
	_ = a.Deps.FileServer.Close()
	return a.DB.Close()
}

// Run serves until ctx ends, then shuts down gracefully.
func (a *App) Run(ctx context.Context, out io.Writer) error {
	apiLn, err := net.Listen("tcp", a.Cfg.APIAddr)
	if err != nil {
		return fmt.Errorf("listen api: %w", err)
	}
	apiSrv := &http.Server{Handler: a.Handler, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second}
	errc := make(chan error, 2)
	go func() { errc <- apiSrv.Serve(apiLn) }()
	filesSrv, err := a.serveFiles(errc)
	if err != nil {
		_ = apiSrv.Close()
		return err
	}
	jobsCtx, stopJobs := context.WithCancel(ctx)
	var jobs sync.WaitGroup
	a.Deps.StartJobs(jobsCtx, &jobs)
	defer func() {
		stopJobs()
		jobs.Wait()
	}()
	a.Log.Info("trove started", "api_addr", apiLn.Addr().String(), "backend", a.DB.D.Name())
	if a.Generated != nil {
		a.printCredentials(out)
	}
	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = apiSrv.Shutdown(sctx)
	if filesSrv != nil {
		_ = filesSrv.Shutdown(sctx)
	}
	a.Log.Info("trove stopped")
	return nil
}

func (a *App) printCredentials(out io.Writer) {
	g := a.Generated
	apiHost := publicAddr(a.Cfg.APIAddr, a.Cfg.PublicHost)
	filesHost := publicAddr(a.Cfg.FilesAddr, a.Cfg.PublicHost)
	fmt.Fprintf(out, `
Trove generated admin credentials (shown once; the secret is stored hashed):
  access key: %s
  secret key: %s

Paste into ~/clearml.conf:
api {
    api_server: http://%s
    web_server: http://%s
    files_server: http://%s
    credentials {
        "access_key" = "%s"
        "secret_key" = "%s"
    }
}

`, g.AccessKey, g.SecretKey, apiHost, apiHost, filesHost, g.AccessKey, g.SecretKey)
}

// publicAddr turns a listen address into one clients can reach.
func publicAddr(listen, host string) string {
	h, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if host != "" {
		h = host
	} else if h == "" || h == "0.0.0.0" || h == "::" {
		h = "localhost"
	}
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	return h + ":" + port
}
