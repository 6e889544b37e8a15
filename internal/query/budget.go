package query

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/trove-ml/trove/internal/limits"
)

// A list query whose filters or ordering no index serves reads every
// record of its scope: seconds on a store of 100,000 tasks, more under
// load. Each statement of a list query runs under limits.ListQueryTime;
// past it the database stops it (SQLite interrupts the statement,
// PostgreSQL cancels it) and the call answers limits.ListQueryTooCostly.

// listQueryTime is the budget in nanoseconds (tests of the refusal lower
// it with SetListQueryTime).
var listQueryTime atomic.Int64

func init() { listQueryTime.Store(int64(limits.ListQueryTime)) }

// SetListQueryTime changes the budget of list statements and returns a
// function that restores the previous one. For tests.
func SetListQueryTime(d time.Duration) (restore func()) {
	old := listQueryTime.Swap(int64(d))
	return func() { listQueryTime.Store(old) }
}

// errOverBudget is the cause of a statement's context that ran out.
var errOverBudget = errors.New("list query over its time budget")

// Budgeted runs fn under the budget and turns its end into the 400; an
// end of the call's own context stays what it was. Other reads that scan
// the records a client's filter selects (the tags of get_*_tags with a
// filter) run under it too.
func Budgeted(ctx context.Context, fn func(ctx context.Context) error) error {
	qctx, cancel := context.WithTimeoutCause(ctx, time.Duration(listQueryTime.Load()), errOverBudget)
	defer cancel()
	err := fn(qctx)
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(qctx), errOverBudget) {
		return limits.ListQueryTooCostly()
	}
	return err
}
