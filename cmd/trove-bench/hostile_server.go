package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
)

// The ordinary (non-admin) user every hostile request runs as.
const (
	hostileKey    = "HOSTILEUSERKEY00000000000000"
	hostileSecret = "hostile-user-secret-000000000000000000000000"
	benchSecret   = "hostile-bench-token-secret"
)

// childServer is `trove serve` run as a child process, so its RSS is the
// server's alone.
type childServer struct {
	URL  string
	cmd  *exec.Cmd
	done chan error
}

// hostileConfig is the configuration shared by the preloading in-process
// app and the child: the same store, secrets and users.
func hostileConfig(dir, db string) config.Config {
	cfg := config.Defaults()
	cfg.DataDir, cfg.DB = dir, db
	cfg.AdminKey, cfg.AdminSecret = "BENCHKEY", "bench-secret"
	cfg.TokenSecret = benchSecret
	cfg.Users = []auth.FixedUser{{Name: "hostile", AccessKey: hostileKey, SecretKey: hostileSecret, Role: auth.RoleUser}}
	return cfg
}

// preload bootstraps the store, creates projects as the ordinary user and
// bulk-loads n tasks over them; it returns the registered operations.
func preload(dir, db string, n int) ([]string, error) {
	a, err := app.New(context.Background(), hostileConfig(dir, db), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return nil, err
	}
	defer a.Close()
	srv := httptest.NewServer(a.Handler)
	defer srv.Close()
	tok, err := loginBasic(srv.URL, hostileKey, hostileSecret)
	if err != nil {
		return nil, err
	}
	call := apiCaller(srv.URL, tok)
	projects, err := benchProjects(call)
	if err != nil {
		return nil, err
	}
	// A store kept from an earlier load (-dir, or a copy of its database)
	// loads only what it lacks.
	have, err := a.DB.CountWhere(context.Background(), "tasks", "company = ?", []any{auth.DefaultCompanyID})
	if err != nil || have >= n {
		return a.Registry.Names(), err
	}
	if err := bulkTasks(context.Background(), a.DB, auth.DefaultCompanyID, projects, have, n); err != nil {
		return nil, err
	}
	if a.DB.IsPostgres() {
		if err := analyze(context.Background(), a.DB, "tasks"); err != nil {
			return nil, err
		}
	}
	return a.Registry.Names(), nil
}

// startChild runs bin `serve` on the store, logging to logPath, and waits
// until it answers.
func startChild(bin, dir, db, logPath string) (*childServer, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(dir, "hostile.yaml")
	yaml := fmt.Sprintf("users:\n  - name: hostile\n    access_key: %s\n    secret_key: %s\n    role: user\n", hostileKey, hostileSecret)
	if err := os.WriteFile(cfgPath, []byte(yaml), 0o600); err != nil {
		return nil, err
	}
	args := []string{"serve", "--config", cfgPath, "--api-addr", fmt.Sprintf("127.0.0.1:%d", port),
		"--files-addr", "127.0.0.1:0", "--web-addr", "127.0.0.1:0", "--data-dir", dir, "--log-level", "warn"}
	if db != "" {
		args = append(args, "--db", db)
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(), "TROVE_ADMIN_KEY=BENCHKEY", "TROVE_ADMIN_SECRET=bench-secret", "TROVE_TOKEN_SECRET="+benchSecret)
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	c := &childServer{URL: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, done: make(chan error, 1)}
	go func() { c.done <- cmd.Wait(); logf.Close() }()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case err := <-c.done:
			return nil, fmt.Errorf("trove serve exited: %v (log %s)", err, logPath)
		default:
		}
		if resp, err := http.Get(c.URL + "/debug.ping"); err == nil {
			resp.Body.Close()
			return c, nil
		}
	}
	c.Stop()
	return nil, fmt.Errorf("trove serve did not answer within 60 s (log %s)", logPath)
}

// Stop sends SIGTERM and waits for the exit (killing it after 15 s).
func (c *childServer) Stop() {
	_ = c.cmd.Process.Signal(os.Interrupt)
	// The exit status of a server told to stop says nothing: only the
	// exit itself is waited for.
	select {
	case <-c.done: //nolint:errcheck // see above
	case <-time.After(15 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done //nolint:errcheck // see above
	}
}

// RSS reads the child's resident set size and its peak, in MiB.
func (c *childServer) RSS() (rss, peak float64) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb float64
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "VmRSS:"):
			_, _ = fmt.Sscanf(strings.TrimPrefix(line, "VmRSS:"), "%f", &kb) // unreadable: 0
			rss = kb / 1024
		case strings.HasPrefix(line, "VmHWM:"):
			_, _ = fmt.Sscanf(strings.TrimPrefix(line, "VmHWM:"), "%f", &kb) // unreadable: 0
			peak = kb / 1024
		}
	}
	return rss, peak
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// loginBasic logs in with a key pair and returns the token.
func loginBasic(url, key, secret string) (string, error) {
	var env struct {
		Data map[string]any `json:"data"`
	}
	// a server still opening its database answers 503: asked again
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodPost, url+"/auth.login", nil)
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(key+":"+secret)))
		err := doJSON(req, &env)
		if err == nil {
			break
		}
		if !strings.Contains(err.Error(), ": 503 ") || time.Now().After(deadline) {
			return "", err
		}
	}
	tok, _ := env.Data["token"].(string)
	return tok, nil
}
