package app

import "time"

// Option changes how New builds the app; the server itself takes none
// (tests and embedders do).
type Option func(*options)

type options struct {
	now func() time.Time
}

// WithClock makes the app tell time by now instead of time.Now wherever
// the rules read the clock (domain.Env.Now: last_update, status times,
// token times, expiries). Tests move such a clock instead of sleeping.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

func newOptions(opts []Option) options {
	o := options{now: time.Now}
	for _, f := range opts {
		f(&o)
	}
	if o.now == nil {
		o.now = time.Now
	}
	return o
}
