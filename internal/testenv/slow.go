package testenv

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/limits"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

// A slow request for tests of cancellation and shutdown: long task texts
// and a tasks.get_all that is costly on both backends, well inside the
// call deadline. SQLite interrupts a statement between rows, so there the
// rows stay cheap: names of the API's length limit, matched against a
// costly pattern a few times over (under a raised time budget).
// PostgreSQL's regex engine is fast on any pattern the API accepts, so
// there the request is a free-text search of many words over long names
// and comments (as records stored before the limits may hold).
const slowTasks = 300

var (
	slowTextLen = map[string]int{"sqlite": 1000, "postgres": 60000}
	// No literal in the pattern: an engine could look for it first.
	slowPattern = strings.Repeat("[a-z]{1,60}", 5) + "[0-9]"
)

// SlowListBody is the costly tasks.get_all body on backend; it finds
// nothing in the tasks SeedSlowTasks stores.
func SlowListBody(backend string) map[string]any {
	if backend == "postgres" {
		words := make([]string, limits.SearchWords)
		for i := range words {
			words[i] = fmt.Sprintf("w%dq0", i)
		}
		return map[string]any{"search_text": strings.Join(words, " ")}
	}
	// Each field's match costs some 20 ms a row; the patterns of a query
	// share one matching budget, which SeedSlowTasks raises for the test:
	// the request runs for about 24 s, in rows of about half a second.
	fields := make([]string, 24)
	for i := range fields {
		fields[i] = "name"
	}
	return map[string]any{"_any_": map[string]any{"fields": fields, "pattern": slowPattern}}
}

// SeedSlowTasks stores, straight into db, tasks of company with long
// random lower-case names and comments, and raises the SQLite pattern
// budget (limits.PatternTime) and the list query budget
// (limits.ListQueryTime) for the test so that SlowListBody runs long.
func SeedSlowTasks(t testing.TB, db *store.DB, company string) {
	t.Helper()
	t.Cleanup(store.SetPatternTime(time.Minute))
	t.Cleanup(query.SetListQueryTime(time.Minute))
	rnd := rand.New(rand.NewSource(1))
	text := make([]byte, slowTextLen[db.D.Name()])
	random := func() string {
		for j := range text {
			text[j] = byte('a' + rnd.Intn(26))
		}
		return string(text)
	}
	err := db.Tx(context.Background(), func(q store.Querier) error {
		for i := 0; i < slowTasks; i++ {
			comment := random()
			tk := &store.Task{ID: fmt.Sprintf("slow%04d", i), Company: company, User: "u", Name: random(),
				Comment: &comment, Type: "training", Status: "created"}
			tk.Normalize()
			if err := db.Tasks().Insert(context.Background(), q, tk); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("seed tasks: %v", err)
	}
}
