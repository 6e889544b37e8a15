package app

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/files"
	"github.com/trove-ml/trove/internal/httpx"
)

// newFileServer builds the file server of the files port.
func newFileServer(ctx context.Context, cfg config.Config, log *slog.Logger, authn files.Authenticator, publicURL string, origins *httpx.Origins) (*files.Service, error) {
	st, spool, err := files.OpenStorage(ctx, cfg.Files, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	svc, err := files.New(files.Options{
		Storage: st, SpoolDir: spool, Auth: authn, Log: log,
		MaxUpload:   cfg.Files.MaxUploadMB << 20,
		URLPrefixes: filesURLPrefixes(cfg, publicURL),
		Origins:     origins,
		AccessLog:   cfg.AccessLog.Enabled,
		SlowCall:    cfg.AccessLog.SlowCall,
	})
	if err != nil {
		if c, ok := st.(interface{ Close() error }); ok {
			_ = c.Close()
		}
		return nil, err
	}
	return svc, nil
}

// filesURLPrefixes are the URLs under which clients reach the file server:
// the public one, the configured extras, and the loopback names when it
// listens on every interface or on loopback (the SDK on the same machine
// may say localhost or 127.0.0.1).
func filesURLPrefixes(cfg config.Config, publicURL string) []string {
	out := append([]string{publicURL}, cfg.Files.URLPrefixes...)
	host, port, err := net.SplitHostPort(cfg.FilesAddr)
	if err != nil {
		return out
	}
	if ip := net.ParseIP(host); host == "" || host == "localhost" || (ip != nil && (ip.IsUnspecified() || ip.IsLoopback())) {
		for _, h := range []string{"localhost", "127.0.0.1", "[::1]"} {
			out = append(out, "http://"+h+":"+port)
		}
	}
	return out
}

// serveFiles starts the file server on ln (nil when no files address is
// set); an unexpected end of Serve is reported on errc.
func (a *App) serveFiles(ln net.Listener, base func(net.Listener) context.Context, errc chan<- error) *http.Server {
	if ln == nil {
		return nil
	}
	// No header timeout beyond the API's; bodies may take long (big
	// models), so no read/write timeouts.
	srv := &http.Server{Handler: a.FilesHandler, ReadHeaderTimeout: 30 * time.Second, BaseContext: base}
	srv.SetKeepAlivesEnabled(false)
	go serveOn(srv, ln, "files", errc)
	a.Log.Info("file server started", "files_addr", ln.Addr().String(), "storage", a.Cfg.Files.Storage)
	return srv
}
