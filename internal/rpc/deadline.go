package rpc

import (
	"context"
	"errors"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
)

// DefaultTimeout is the server-side deadline of a call when none is
// configured.
const DefaultTimeout = 60 * time.Second

// ErrShuttingDown is the cause the server gives the contexts of calls it
// ends at shutdown (see app.Run).
var ErrShuttingDown = errors.New("the server is shutting down")

// callContext bounds a call in time: every call but a streaming one ends
// at the server's deadline, and every call ends when its client goes away
// (the request context) or the server shuts down (its base context). The
// store runs its statements under this context, so SQLite interrupts a
// running statement and PostgreSQL cancels it.
func (s *Server) callContext(parent context.Context, ep *Endpoint) (context.Context, context.CancelFunc) {
	if ep.Streaming || s.Timeout < 0 {
		return context.WithCancel(parent)
	}
	d := s.Timeout
	if d == 0 {
		d = DefaultTimeout
	}
	return context.WithTimeout(parent, d)
}

// deadlineError turns the end of a call's context into its answer: a
// shutdown and the deadline are 503s (the latter naming the limit); a
// client that left gets nothing it could read, so the status only feeds
// the log.
func (s *Server) deadlineError(ctx context.Context, err error) (*apierr.Error, bool) {
	if ctx.Err() == nil || !(errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || errors.Is(err, ctx.Err())) {
		return nil, false
	}
	if errors.Is(context.Cause(ctx), ErrShuttingDown) {
		return apierr.ShuttingDown(), true
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return apierr.CallTimedOut(s.timeoutOrDefault().String()), true
	}
	return apierr.ClientClosed(), true
}

func (s *Server) timeoutOrDefault() time.Duration {
	if s.Timeout == 0 {
		return DefaultTimeout
	}
	return s.Timeout
}
