package store

import (
	"context"
	"testing"
)

// The 512-row INSERT of scalar points is longer than the cache's limit on
// query text but runs for every batch: it is kept, while an ad-hoc text
// as long is not.
func TestStatementCacheKeepsMultiRowShapes(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	text := MultiRowSQL(db.D, "INSERT INTO event_scalars (series, iter, value, dts, dwts)", "(?, ?, ?, ?, ?)", "", 512)
	args := make([]any, 0, 512*5)
	for i := range 512 {
		args = append(args, 1, i, float64(i), 5, 0)
	}
	if err := db.Tx(ctx, func(q Querier) error {
		_, err := q.ExecContext(ctx, text, args...)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(text) <= maxCachedQuery {
		t.Fatalf("the 512-row statement is only %d bytes: the test shows nothing", len(text))
	}
	if db.wc.lookup(text) == nil {
		t.Fatal("the 512-row INSERT was not kept prepared")
	}
	long := "SELECT 1 WHERE 1 IN (" + Placeholders(2000) + ")"
	if cacheable(long) {
		t.Fatal("an ad-hoc statement of 2,000 placeholders is cacheable")
	}
}
