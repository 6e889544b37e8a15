// Package app wires Trove together and owns its lifecycle: open the store,
// bootstrap identities, serve the API and file ports, shut down in order.
package app

import (
	"context"
	"errors"
	"fmt"
	mlflowapi "github.com/trove-ml/trove/internal/api/mlflow"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzhttp"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/cluster"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/httpx"
	"github.com/trove-ml/trove/internal/metrics"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/webapp"
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
	// Metrics is the Prometheus instrumentation (nil when switched off).
	Metrics *metrics.Metrics
	// stopWatch ends the goroutine hearing other processes' logouts,
	// counted by watchers.
	stopWatch func()
	watchers  sync.WaitGroup
	// WebHandler is the web address's handler (web.go).
	WebHandler http.Handler
	// Origins is the origin policy of both ports (origins.go).
	Origins *httpx.Origins
	// notReady, when set, is why /readyz says not ready (health.go).
	notReady atomic.Pointer[string]
	// freeSpace reports free space for /readyz (nil: statfs).
	freeSpace atomic.Pointer[FreeSpaceFunc]
	// jobs runs the start-up steps and background jobs (jobs.go).
	jobs *scheduler
}

// New opens the store, bootstraps and builds the handlers.
func New(ctx context.Context, cfg config.Config, log *slog.Logger, opts ...Option) (*App, error) {
	o := newOptions(opts)
	// A bad --webapp-dir fails the start before the store is touched.
	if cfg.WebappDir != "" {
		if err := webapp.CheckDir(cfg.WebappDir); err != nil {
			return nil, err
		}
	}
	if cfg.MLflowUIDir != "" {
		if err := webapp.CheckMLflowUIDir(cfg.MLflowUIDir); err != nil {
			return nil, err
		}
	}
	origins, err := AllowedOrigins(cfg)
	if err != nil {
		return nil, err
	}
	configured, err := cfg.SigningSecret()
	if err != nil {
		return nil, err
	}
	db, err := openStore(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	logTightened(log, db.Tightened)
	env := domain.Env{DB: db, Now: o.now}
	node := &cluster.Node{DB: db, Log: log}
	var secret []byte
	var gen *auth.Generated
	// processes starting together on one database bootstrap in turn
	err = node.Startup(ctx, func(ctx context.Context) (err error) {
		if secret, err = auth.TokenSecret(ctx, &env, configured); err != nil {
			return err
		}
		gen, err = auth.Bootstrap(ctx, &env, cfg.AdminKey, cfg.AdminSecret, cfg.Users)
		return err
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	deps := &api.Deps{Env: env, Log: log, FilesURL: PublicFilesURL(cfg), PublicConfig: publicConfig(cfg),
		EventQueueBytes: int64(cfg.EventQueueMB) << 20, SecureCookies: cfg.PublicScheme() == "https"}
	deps.Auth = auth.New(&deps.Env, secret)
	// deps.Now may be replaced after start-up (tests fix the clock).
	deps.Scrolls = &events.Scrolls{DB: db, Now: func() time.Time { return deps.Now() }}
	deps.Ingester = &events.Ingester{DB: db, Now: func() time.Time { return deps.Now() }, MaxPending: deps.EventQueueBytes}
	authn := rpc.RequestAuth{Credentials: deps.Auth}
	fsvc, err := newFileServer(ctx, cfg, log, authn, deps.FilesURL, origins)
	if err != nil {
		db.Close()
		return nil, err
	}
	deps.Files = fsvc
	deps.FileServer = fsvc
	// On PostgreSQL the store leaves the data dir alone; the file server
	// may have made it: it is kept private as on SQLite.
	if loc, _ := store.Locate(cfg.DB, cfg.DataDir); loc.Backend == "postgres" && cfg.DataDir != "" {
		if _, err := os.Stat(cfg.DataDir); err == nil {
			if t, err := store.SecureDir(cfg.DataDir); err == nil && t != nil {
				logTightened(log, []store.Tightened{*t})
			}
		}
	}
	reg := NewRegistry(deps)
	a := &App{Cfg: cfg, Log: log, DB: db, Deps: deps, Generated: gen, FilesHandler: fsvc, Registry: reg, Origins: origins}
	srv := &rpc.Server{Registry: reg, Auth: authn, Log: log, MaxBody: int64(cfg.MaxBodyMB) << 20, Timeout: cfg.RequestTimeout, Origins: origins,
		AccessLog: cfg.AccessLog.Enabled, SlowCall: cfg.AccessLog.SlowCall}
	if cfg.Metrics {
		a.instrument(srv)
	}
	a.jobs = &scheduler{log: log, exclusive: node.RunJob, inTurn: node.Startup}
	a.jobs.jobs = a.jobList()
	if err := a.jobs.runStartup(ctx); err != nil {
		db.Close()
		return nil, err
	}
	// MLflow's tracking API beside the ClearML RPC (issue 38)
	mlf := mlflowapi.New(&deps.Env, authn, origins, log, int64(cfg.MaxBodyMB)<<20, cfg.RequestTimeout).WithFiles(fsvc).WithFilesURL(deps.FilesURL).WithIngester(deps.Ingester)
	a.Handler = a.withOpsRoutes(gzhttp.GzipHandler(mlf.MountArtifacts(mlf.Mount(srv))))
	// logouts made by other processes on the database reach this one
	watchCtx, stopWatch := context.WithCancel(context.Background())
	node.WatchLogouts(watchCtx, &a.watchers, deps.Auth)
	a.stopWatch = stopWatch
	if a.WebHandler, err = a.newWebHandler(); err != nil {
		_ = a.Close()
		return nil, err
	}
	return a, nil
}

// logTightened warns of each data path whose mode let other users in.
func logTightened(log *slog.Logger, ts []store.Tightened) {
	for _, t := range ts {
		log.Warn("data dir or database file open to other users", "detail", t.String())
	}
}

// Close stops hearing other processes and releases the file storage and
// the store.
func (a *App) Close() error {
	a.stopWatch()
	a.watchers.Wait()
	_ = a.Deps.FileServer.Close()
	return a.DB.Close()
}

// shutdownGrace is how long in-flight calls may go on after a stop is
// asked for; shutdownLimit bounds the whole shutdown of the servers, so
// SIGTERM ends the process within 10 s.
const (
	shutdownGrace = 5 * time.Second
	shutdownLimit = 8 * time.Second
)

// Run serves on the bound ports until ctx ends, then shuts down
// gracefully; on a first start it prints the generated key pair to out.
func (a *App) Run(ctx context.Context, ls *Listeners, out io.Writer) error {
	errc := make(chan error, 3)
	// Every request's context derives from calls, ended during shutdown.
	calls, endCalls := context.WithCancelCause(context.Background())
	defer endCalls(nil)
	base := func(net.Listener) context.Context { return calls }
	apiSrv := &http.Server{Handler: a.Handler, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second, BaseContext: base}
	go serveOn(apiSrv, ls.API, "api", errc)
	webSrv := &http.Server{Handler: a.WebHandler, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second, BaseContext: base}
	go serveOn(webSrv, ls.Web, "web", errc)
	filesSrv := a.serveFiles(ls.Files, base, errc)
	jobsCtx, stopJobs := context.WithCancel(ctx)
	var jobs sync.WaitGroup
	a.StartJobs(jobsCtx, &jobs)
	defer func() {
		stopJobs()
		jobs.Wait()
	}()
	// The key (or the hint) comes before "trove started", which tells
	// scripts and tests the start is complete.
	a.offerKey(ctx, out)
	a.Log.Info("trove started", "api_addr", ls.API.Addr().String(), "web_addr", ls.Web.Addr().String(),
		"backend", a.DB.D.Name(), "metrics", a.Metrics != nil, "cors_origins", a.Origins.List())
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	// In-flight calls get shutdownGrace to finish; then their contexts
	// end, which interrupts running statements (a write's transaction
	// rolls back), and the handlers return well before shutdownLimit.
	interrupt := time.AfterFunc(shutdownGrace, func() { endCalls(rpc.ErrShuttingDown) })
	defer interrupt.Stop()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownLimit)
	defer cancel()
	var wg sync.WaitGroup
	for _, srv := range []*http.Server{apiSrv, webSrv, filesSrv} {
		if srv != nil {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = srv.Shutdown(sctx)
			}()
		}
	}
	wg.Wait()
	a.Log.Info("trove stopped")
	return err
}

// serveOn serves srv on ln and reports an unexpected end on errc.
func serveOn(srv *http.Server, ln net.Listener, name string, errc chan<- error) {
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		errc <- fmt.Errorf("%s server: %w", name, err)
	}
}

// offerKey prints the key pair generated on this start, or says how to
// get one when no key has ever been shown (say a first start died before
// printing it) and none is configured.
func (a *App) offerKey(ctx context.Context, out io.Writer) {
	if a.Generated != nil {
		fmt.Fprint(out, KeyMessage(a.Cfg, "Trove generated admin credentials", a.Generated.AccessKey, a.Generated.SecretKey))
		if err := auth.MarkShown(ctx, a.DB, a.Deps.Now().UTC().Format(time.RFC3339)); err != nil {
			a.Log.Warn("could not record that the key was shown", "error", err.Error())
		}
		return
	}
	if a.Cfg.AdminKey != "" || len(a.Cfg.Users) > 0 {
		return
	}
	shown, err := auth.KeyEverShown(ctx, a.DB)
	if err == nil && !shown {
		a.Log.Warn("no access key has been shown yet: run `trove credentials create` (with this server's --db/--data-dir) to print a new key pair and clearml.conf snippet")
	}
}
