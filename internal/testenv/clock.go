package testenv

import (
	"sync/atomic"
	"time"
)

// Clock is the time source of an environment's server (app.WithClock): the
// machine's time moved by an offset that the test sets. A test that needs
// time to pass between two calls (so that last_update moves, a token
// expires, a worker times out) advances it instead of sleeping, so the
// outcome does not depend on how fast the machine is.
type Clock struct {
	offset atomic.Int64 // nanoseconds
}

// Now is the server's current time.
func (c *Clock) Now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// Advance moves the server's clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// Set makes the server's clock read t now (it runs on from there).
func (c *Clock) Set(t time.Time) { c.offset.Store(int64(time.Until(t))) }
