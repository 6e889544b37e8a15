package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// syncBuffer is an output stream the server writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// instance is one data dir (and database) the tests start servers on.
type instance struct {
	dir, db string
}

func newInstance(t *testing.T, backend string) instance {
	in := instance{dir: filepath.Join(t.TempDir(), "data")}
	if backend == "postgres" {
		in.db = testenv.NewPostgresDB(t)
	}
	return in
}

// args are the serve flags for this instance on loopback ports (0 = any).
func (in instance) args(api, files, web string) []string {
	a := []string{"--data-dir", in.dir, "--api-addr", api, "--files-addr", files, "--web-addr", web, "--log-format", "text"}
	if in.db != "" {
		a = append(a, "--db", in.db)
	}
	return a
}

func noEnv(string) string { return "" }

// running is a server started by start.
type running struct {
	stdout, stderr *syncBuffer
	stop           func()
}

// start runs serve until the test calls stop; it waits for the start-up
// log line.
func start(t *testing.T, args []string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{stdout: &syncBuffer{}, stderr: &syncBuffer{}}
	done := make(chan error, 1)
	go func() { done <- serve(ctx, args, noEnv, r.stdout, r.stderr) }()
	r.stop = func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}
	t.Cleanup(cancel)
	waitStarted(t, r.stderr, done)
	return r
}

// waitStarted waits for serve's start-up log line and returns the API
// address it names.
func waitStarted(t *testing.T, stderr *syncBuffer, done <-chan error) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "trove started") {
		select {
		case err := <-done:
			t.Fatalf("serve ended at start: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return apiAddr(t, stderr.String())
}

// bootstrapped opens in's store and creates its first key pair without
// printing it; the caller closes the store.
func bootstrapped(t *testing.T, in instance) (*store.DB, *auth.Generated) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, in.db, in.dir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := auth.Bootstrap(ctx, &domain.Env{DB: db, Now: time.Now}, "", "", nil)
	if err != nil || g == nil {
		db.Close()
		t.Fatalf("bootstrap: %v %v", g, err)
	}
	return db, g
}

var snippetURL = regexp.MustCompile(`(?m)^\s+(web|api|files)_server: (http://\S+)$`)
var snippetKey = regexp.MustCompile(`"(access|secret)_key" = "([^"]+)"`)

// snippet reads the URLs and key pair of a printed clearml.conf snippet.
func snippet(t *testing.T, out string) (urls, keys map[string]string) {
	t.Helper()
	urls, keys = map[string]string{}, map[string]string{}
	for _, m := range snippetURL.FindAllStringSubmatch(out, -1) {
		urls[m[1]] = m[2]
	}
	for _, m := range snippetKey.FindAllStringSubmatch(out, -1) {
		keys[m[1]] = m[2]
	}
	if len(urls) != 3 || len(keys) != 2 {
		t.Fatalf("no complete snippet in:\n%s", out)
	}
	return urls, keys
}

// login checks a key pair against the API and returns the token.
func login(t *testing.T, api, key, secret string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, api+"/auth.login", nil)
	req.SetBasicAuth(key, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("login with %s: %s", key, resp.Status)
	}
	var env struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || env.Data.Token == "" {
		t.Fatalf("login with %s gave no token: %v", key, err)
	}
	return env.Data.Token
}

// busyPort holds a loopback port for the test's duration.
func busyPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String()
}

func TestFirstStart(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			in := newInstance(t, backend)
			busy := busyPort(t)
			free := "127.0.0.1:0"
			for _, args := range [][]string{in.args(busy, free, free), in.args(free, busy, free), in.args(free, free, busy)} {
				var out, errs syncBuffer
				err := serve(context.Background(), args, noEnv, &out, &errs)
				if err == nil || !strings.Contains(err.Error(), "address already in use") || !strings.Contains(err.Error(), busy) {
					t.Fatalf("start on a busy port: %v", err)
				}
				if _, statErr := os.Stat(in.dir); !os.IsNotExist(statErr) {
					t.Fatalf("a start that failed on a busy port created the data dir (%v)", statErr)
				}
			}

			// The next start creates the key and prints it with the real,
			// distinct addresses.
			r := start(t, in.args(free, free, free))
			urls, keys := snippet(t, r.stdout.String())
			if urls["web"] == urls["api"] || urls["api"] == urls["files"] || urls["web"] == urls["files"] {
				t.Fatalf("snippet URLs are not distinct: %v", urls)
			}
			for name, u := range urls {
				if strings.HasSuffix(u, ":0") {
					t.Fatalf("%s_server shows port 0: %s", name, u)
				}
			}
			login(t, urls["api"], keys["access"], keys["secret"])
			resp, err := http.Get(urls["web"] + "/")
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("web address: %v %v", resp, err)
			}
			resp.Body.Close()
			r.stop()

			// A later start neither prints a key nor asks for one.
			r = start(t, in.args(free, free, free))
			r.stop()
			if strings.Contains(r.stdout.String(), "access key") || strings.Contains(r.stderr.String(), "credentials create") {
				t.Fatalf("second start offered a key:\n%s\n%s", r.stdout.String(), r.stderr.String())
			}
		})
	}
}

// TestKeyNeverShown covers a first start that stored a key but died before
// printing it: later starts say how to get one, and `trove credentials
// create` prints a working key pair.
func TestKeyNeverShown(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			in := newInstance(t, backend)
			ctx := context.Background()
			db, g := bootstrapped(t, in)
			db.Close()

			free := "127.0.0.1:0"
			r := start(t, in.args(free, free, free))
			r.stop()
			if !strings.Contains(r.stderr.String(), "trove credentials create") {
				t.Fatalf("no hint about `trove credentials create`:\n%s", r.stderr.String())
			}

			var out syncBuffer
			dbArgs := []string{"--data-dir", in.dir}
			if in.db != "" {
				dbArgs = append(dbArgs, "--db", in.db)
			}
			if err := credentials(ctx, append([]string{"create"}, dbArgs...), noEnv, &out); err != nil {
				t.Fatal(err)
			}
			_, admin := snippet(t, out.String())
			out = syncBuffer{}
			if err := credentials(ctx, append([]string{"create", "--user", "alice"}, dbArgs...), noEnv, &out); err != nil {
				t.Fatal(err)
			}
			_, alice := snippet(t, out.String())
			if admin["access"] == alice["access"] {
				t.Fatal("two creates printed one key")
			}

			r = start(t, in.args(free, free, free))
			urls := map[string]string{"api": "http://" + apiAddr(t, r.stderr.String())}
			login(t, urls["api"], admin["access"], admin["secret"])
			login(t, urls["api"], alice["access"], alice["secret"])
			login(t, urls["api"], g.AccessKey, g.SecretKey)
			r.stop()
			if strings.Contains(r.stderr.String(), "credentials create") {
				t.Fatalf("hint shown after a key was printed:\n%s", r.stderr.String())
			}
		})
	}
}

func TestCredentialsUsage(t *testing.T) {
	var out syncBuffer
	if err := credentials(context.Background(), nil, noEnv, &out); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Fatalf("credentials without create: %v", err)
	}
}

var apiAddrLog = regexp.MustCompile(`api_addr=(\S+)`)

// apiAddr reads the bound API address from the start-up log.
func apiAddr(t *testing.T, log string) string {
	m := apiAddrLog.FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no api_addr in log:\n%s", log)
	}
	return m[1]
}
