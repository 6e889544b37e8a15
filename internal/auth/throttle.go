package auth

import (
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"

	"github.com/trove-ml/trove/internal/limits"
)

// throttledEntries bounds each of the throttle's maps: the keys and
// addresses come from callers, so an unbounded map would grow on demand.
const throttledEntries = 10000

// loginThrottle limits failed key/secret logins per access key and per
// source address with a token bucket each: a failure takes a token, and
// an attempt is refused while a bucket it would draw from is empty.
// Successful logins take nothing, so many processes of one host may log
// in at once.
type loginThrottle struct {
	mu    sync.Mutex
	keys  *lru.Cache[string, *bucket]
	addrs *lru.Cache[string, *bucket]
}

// bucket is one caller's allowance; pending counts attempts under way, so
// concurrent attempts cannot overdraw it.
type bucket struct {
	lim     *rate.Limiter
	pending int
}

func newLoginThrottle() *loginThrottle {
	keys, _ := lru.New[string, *bucket](throttledEntries)
	addrs, _ := lru.New[string, *bucket](throttledEntries)
	return &loginThrottle{keys: keys, addrs: addrs}
}

// begin reports whether a login by key from addr may go on at now; when
// it may, end must follow with the outcome. An empty addr is not limited
// by address.
func (t *loginThrottle) begin(key, addr string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	bs := t.buckets(key, addr)
	for _, b := range bs {
		if b.lim.TokensAt(now)-float64(b.pending) < 1 {
			return false
		}
	}
	for _, b := range bs {
		b.pending++
	}
	return true
}

// end closes an attempt begin let through; a failure takes a token from
// the key's and the address's buckets.
func (t *loginThrottle) end(key, addr string, now time.Time, failed bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range t.buckets(key, addr) {
		if b.pending > 0 { // an evicted bucket comes back without its count
			b.pending--
		}
		if failed {
			b.lim.AllowN(now, 1)
		}
	}
}

// allows reports whether a bucket of key and addr has a token left at
// now, not counting attempts under way: for a secret known to match,
// whose check is quick and almost never fails.
func (t *loginThrottle) allows(key, addr string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range t.buckets(key, addr) {
		if b.lim.TokensAt(now) < 1 {
			return false
		}
	}
	return true
}

// fail takes a token for a failed login that did not go through begin.
func (t *loginThrottle) fail(key, addr string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range t.buckets(key, addr) {
		b.lim.AllowN(now, 1)
	}
}

// buckets finds or makes the buckets an attempt draws from.
func (t *loginThrottle) buckets(key, addr string) []*bucket {
	out := []*bucket{bucketOf(t.keys, key)}
	if addr != "" {
		out = append(out, bucketOf(t.addrs, addr))
	}
	return out
}

func bucketOf(c *lru.Cache[string, *bucket], name string) *bucket {
	if b, ok := c.Get(name); ok {
		return b
	}
	b := &bucket{lim: rate.NewLimiter(rate.Limit(limits.LoginRefillPerSecond), limits.LoginFailures)}
	c.Add(name, b)
	return b
}

// retryAfterSeconds is the wait a refused login is told: a token comes
// back within a second at any LoginRefillPerSecond of one or more.
const retryAfterSeconds = 1
