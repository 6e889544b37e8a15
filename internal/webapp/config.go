package webapp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// Servers are Trove's addresses as the browser should reach them.
type Servers struct {
	// APIAddr and FilesAddr are the bound listen addresses (host:port);
	// FilesAddr is "" when Trove runs without a file server.
	APIAddr, FilesAddr string
	// PublicHost is the configured host name clients use; when empty, the
	// host the browser used for the web address is taken.
	PublicHost string
	// PublicScheme is the scheme of the public host ("https" when
	// configured as https://HOST); "" is http.
	PublicScheme string
}

// APIBasePath is where the web address serves the API; configuration.json
// names it as the app's apiBaseUrl, so the app calls its own origin.
const APIBasePath = "/api"

// configFile is the name the app fetches its settings under.
const configFile = "configuration.json"

// loadLocalConfig reads a configuration.json shipped in the build (such as
// one copied from a webserver container); its settings are kept, but for
// the server addresses, which Trove sets. A build without one is fine.
func loadLocalConfig(dir string) (map[string]any, error) {
	b, err := os.ReadFile(filepath.Join(dir, configFile))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--webapp-dir: %w", err)
	}
	out := map[string]any{}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("--webapp-dir: %s is not a JSON object: %w", filepath.Join(dir, configFile), err)
	}
	return out, nil
}

// configHandler answers configuration.json: the build's own settings with
// the API at /api of this origin and the file server's public URL.
func configHandler(local map[string]any, s Servers) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		body, err := json.MarshalIndent(s.configuration(local, requestHost(r)), "", "  ")
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		// It depends on the Host the browser used.
		h.Set("Cache-Control", "no-store")
		if r.Method == http.MethodGet {
			_, _ = w.Write(body)
		}
	})
}

// configuration merges Trove's addresses into the build's settings.
func (s Servers) configuration(local map[string]any, browserHost string) map[string]any {
	out := make(map[string]any, len(local)+3)
	for k, v := range local {
		out[k] = v
	}
	out["apiBaseUrl"] = APIBasePath
	shown := map[string]any{"apiServer": s.url(s.APIAddr, browserHost)}
	if s.FilesAddr != "" {
		files := s.url(s.FilesAddr, browserHost)
		// The app recognises file-server URLs (debug images, artifacts)
		// by this prefix.
		out["fileBaseUrl"] = files
		shown["filesServer"] = files
	}
	// Shown in the app's clearml.conf snippet for the SDK, which talks to
	// the API port directly.
	out["displayedServerUrls"] = shown
	return out
}

// url is http://host:port of a listen address, the host being the public
// host, else the browser's, else the listen address's own.
func (s Servers) url(listen, browserHost string) string {
	h, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "http://" + listen
	}
	scheme := "http"
	switch {
	case s.PublicHost != "":
		h = s.PublicHost
		if s.PublicScheme != "" {
			scheme = s.PublicScheme
		}
	case browserHost != "":
		h = browserHost
	case h == "" || h == "0.0.0.0" || h == "::":
		h = "localhost"
	}
	return scheme + "://" + net.JoinHostPort(strings.Trim(h, "[]"), port)
}

// requestHost is the host name of the request's Host header, without port.
func requestHost(r *http.Request) string {
	if h, _, err := net.SplitHostPort(r.Host); err == nil {
		return h
	}
	return r.Host
}
