package testenv

import (
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/config"
)

// Store faults for tests: a TCP proxy between Trove and PostgreSQL that a
// test cuts (open connections dropped, new ones closed at once) and
// restores, and a small tmpfs to fill for a full disk.

// Proxy forwards TCP connections to a target while it is not cut.
type Proxy struct {
	ln     net.Listener
	mu     sync.Mutex
	target string
	cut    bool
	// refused counts connections closed at once while cut.
	refused int
	conns   map[net.Conn]struct{}
	wg      sync.WaitGroup
}

// NewProxy listens on a loopback port; the target is set by Target or by
// the WithPostgresProxy option. It stops at the test's end.
func NewProxy(t testing.TB) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.close)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Target sets the address the proxy forwards to.
func (p *Proxy) Target(addr string) {
	p.mu.Lock()
	p.target = addr
	p.mu.Unlock()
}

// Via rewrites a postgres:// URL to reach its server through the proxy
// (which then forwards to the URL's host).
func (p *Proxy) Via(dbURL string) (string, error) {
	u, err := url.Parse(dbURL)
	if err != nil {
		return "", err
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "5432")
	}
	p.Target(host)
	u.Host = p.Addr()
	return u.String(), nil
}

// Cut drops every open connection and closes new ones at once, as a
// database that went away.
func (p *Proxy) Cut() {
	p.mu.Lock()
	p.cut = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
}

// WaitRefused waits until the proxy has refused n connections in all, for
// at most within; it reports whether it saw them.
func (p *Proxy) WaitRefused(n int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for {
		p.mu.Lock()
		done := p.refused >= n
		p.mu.Unlock()
		if done {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Restore forwards new connections again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	p.cut = false
	p.mu.Unlock()
}

func (p *Proxy) close() {
	p.ln.Close()
	p.Cut()
	p.wg.Wait()
}

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		cut, target := p.cut, p.target
		p.mu.Unlock()
		if cut || target == "" {
			c.Close()
			p.mu.Lock()
			p.refused++
			p.mu.Unlock()
			continue
		}
		up, err := net.Dial("tcp", target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		if p.cut { // cut while dialling
			p.mu.Unlock()
			c.Close()
			up.Close()
			continue
		}
		p.conns[c], p.conns[up] = struct{}{}, struct{}{}
		p.mu.Unlock()
		p.wg.Add(2)
		pipe := func(dst, src net.Conn) {
			defer p.wg.Done()
			_, _ = io.Copy(dst, src)
			dst.Close()
			src.Close()
			p.mu.Lock()
			delete(p.conns, dst)
			delete(p.conns, src)
			p.mu.Unlock()
		}
		go pipe(up, c)
		go pipe(c, up)
	}
}

// WithPostgresProxy routes a PostgreSQL environment's store through p (a
// SQLite environment is left alone).
func WithPostgresProxy(t testing.TB, p *Proxy) Option {
	return func(c *config.Config) {
		if c.DB == "" {
			return
		}
		via, err := p.Via(c.DB)
		if err != nil {
			t.Fatalf("proxy %s: %v", c.DB, err)
		}
		c.DB = via
	}
}

// WithDataDir sets the data directory.
func WithDataDir(dir string) Option {
	return func(c *config.Config) { c.DataDir = dir }
}

// SmallDisk mounts a tmpfs of sizeMB megabytes for the test and returns
// its path. Where mounting is not permitted (not root, no CAP_SYS_ADMIN)
// it skips the test, saying so.
func SmallDisk(t testing.TB, sizeMB int) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+itoa(sizeMB)+"m", "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount a %d MB tmpfs for a full disk (%v: %s); the full-disk case is not tested here", sizeMB, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// FillDisk writes a file under dir until its filesystem is full and
// returns a function that removes it.
func FillDisk(t testing.TB, dir string) (free func()) {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<10)
	for {
		if _, err = f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("fill %s: %v, want ENOSPC", dir, err)
	}
	// the last pages of a block
	for _, n := range []int{4096, 512, 1} {
		if f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0); err == nil {
			for {
				if _, err := f.Write(buf[:n]); err != nil {
					break
				}
			}
			f.Close()
		}
	}
	return func() {
		if err := os.Remove(name); err != nil {
			t.Fatalf("free %s: %v", dir, err)
		}
	}
}

func itoa(n int) string {
	return strconv.Itoa(n)
}
