package auth

import (
	"sync"
	"time"
)

// tokenCache remembers verified tokens: a token's content never changes, so
// its signature need only be checked once. Expiry and revocation are still
// checked on every call.
type tokenCache struct {
	mu sync.RWMutex
	m  map[string]cachedToken
}

type cachedToken struct {
	id      Identity
	expires time.Time // zero: no expiry
}

const maxCachedTokens = 10000

func (c *tokenCache) get(tok string) (cachedToken, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.m[tok]
	return e, ok
}

func (c *tokenCache) put(tok string, e cachedToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedTokens {
		c.m = make(map[string]cachedToken)
	}
	c.m[tok] = e
}
