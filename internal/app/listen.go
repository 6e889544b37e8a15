package app

import (
	"fmt"
	"net"

	"github.com/trove-ml/trove/internal/config"
)

// Listeners are the server's bound ports. They are taken before the store
// is opened, so a busy port fails a first start before it has created
// anything (such as an admin key nobody would see).
type Listeners struct {
	API net.Listener
	// Files is nil when no files address is configured.
	Files net.Listener
	Web   net.Listener
}

// Listen binds the API, files and web addresses of cfg; on any failure
// the ports already bound are released.
func Listen(cfg config.Config) (*Listeners, error) {
	l := &Listeners{}
	var err error
	if l.API, err = listen("api", "--api-addr", cfg.APIAddr); err != nil {
		return nil, err
	}
	if cfg.FilesAddr != "" {
		if l.Files, err = listen("files", "--files-addr", cfg.FilesAddr); err != nil {
			l.Close()
			return nil, err
		}
	}
	if l.Web, err = listen("web", "--web-addr", cfg.WebAddr); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

func listen(name, flag, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s port: %w (choose another with %s)", name, err, flag)
	}
	return ln, nil
}

// Close releases every bound port.
func (l *Listeners) Close() {
	for _, ln := range []net.Listener{l.API, l.Files, l.Web} {
		if ln != nil {
			_ = ln.Close()
		}
	}
}

// Resolve returns cfg with the ports the system chose (port 0) written
// into its addresses, so the printed URLs name the real ports.
func (l *Listeners) Resolve(cfg config.Config) config.Config {
	cfg.APIAddr = boundAddr(cfg.APIAddr, l.API)
	if l.Files != nil {
		cfg.FilesAddr = boundAddr(cfg.FilesAddr, l.Files)
	}
	cfg.WebAddr = boundAddr(cfg.WebAddr, l.Web)
	return cfg
}

// boundAddr keeps the configured host and takes the listener's port.
func boundAddr(configured string, ln net.Listener) string {
	host, _, err := net.SplitHostPort(configured)
	if err != nil {
		return ln.Addr().String()
	}
	_, port, err := net.SplitHostPort(ln.Addr().String())
	if err != nil {
		return configured
	}
	return net.JoinHostPort(host, port)
}
