package store

import (
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/limits"
)

// A name filter's pattern is matched by SQLite row after row through the
// REGEXP function. Go's engine is linear in the text, but a large pattern
// over many long names still adds up, so each pattern of a query gets a
// time budget (limits.PatternTime): the query builder registers the
// compiled pattern under a token, binds the token instead of the pattern,
// and the REGEXP function charges its matching time to the token. Past the
// budget the statement fails with limits.PatternBudgetMarker, which the
// API answers as a 400 naming the field.

// patternTime is the budget in nanoseconds (limits.PatternTime; tests of
// slow requests raise it with SetPatternTime).
var patternTime atomic.Int64

func init() { patternTime.Store(int64(limits.PatternTime)) }

// SetPatternTime changes the matching budget of a query's patterns and
// returns a function that restores the previous one. For tests that need
// a slow request.
func SetPatternTime(d time.Duration) (restore func()) {
	old := patternTime.Swap(int64(d))
	return func() { patternTime.Store(old) }
}

// budgetPrefix starts a registered token (SQLite cuts text at a NUL, so
// the unit separator marks it instead). A client's pattern that starts
// with it names no registered token, and a token is a random id.
const budgetPrefix = "\x1ftrove-re:"

// PatternBudget is the matching time one query may spend on all its
// patterns together (a query with many pattern fields shares one).
type PatternBudget struct {
	spent atomic.Int64 // nanoseconds of matching
}

type budgetedPattern struct {
	re     *regexp.Regexp
	field  string
	budget *PatternBudget
}

// budgeted holds the registered patterns; a query runs right after it is
// built, so the most recent ones are enough.
var budgeted, _ = lru.New[string, *budgetedPattern](1024)

// registerBudgetedPattern compiles pattern (case-insensitive when ci) and
// returns the token to bind in its place; its matching time is charged to
// budget (a budget of its own when nil).
func registerBudgetedPattern(pattern, field string, ci bool, budget *PatternBudget) (string, error) {
	if budget == nil {
		budget = &PatternBudget{}
	}
	if ci {
		pattern = "(?i)" + pattern
	}
	re, err := compileCached(pattern)
	if err != nil {
		return "", err
	}
	token := budgetPrefix + ids.New()
	budgeted.Add(token, &budgetedPattern{re: re, field: field, budget: budget})
	return token, nil
}

// matchBudgeted matches s with the pattern registered under token,
// charging the time to the token's budget.
func matchBudgeted(token, s string) (bool, error) {
	b, ok := budgeted.Get(token)
	if !ok {
		return false, fmt.Errorf("%s: pattern no longer registered (too many concurrent queries)", limits.PatternBudgetMarker)
	}
	start := time.Now()
	m := b.re.MatchString(s)
	if b.budget.spent.Add(int64(time.Since(start))) > patternTime.Load() {
		return false, fmt.Errorf("%s: field=%s", limits.PatternBudgetMarker, b.field)
	}
	return m, nil
}

// isBudgetToken reports whether a REGEXP pattern argument is a token.
func isBudgetToken(p string) bool { return strings.HasPrefix(p, budgetPrefix) }
