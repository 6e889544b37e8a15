package store_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// slowSecondRow finds its first row at once and its second only after a
// billion steps of the VM (minutes).
const slowSecondRow = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
	SELECT x FROM c WHERE x = 1 OR x = 1000000000`

// stopsWhenCanceled runs slowSecondRow through q, reads the first row,
// cancels the query's context and fails unless the next step stops
// within a second with the context's error.
func stopsWhenCanceled(t *testing.T, name string, q store.Querier) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows, err := q.QueryContext(ctx, slowSecondRow)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatalf("%s: no first row: %v", name, rows.Err())
	}
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	more := rows.Next()
	if took := time.Since(start); more || took > time.Second {
		t.Fatalf("%s: the step after the cancel ran %v (another row: %v)", name, took, more)
	}
	if err := rows.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("%s: error %v, want the context's", name, err)
	}
}

// A SQLite query whose context ends while Rows.Next steps to a later row
// stops within a second (the driver alone interrupts only the first
// row's computation), through the statement cache and in a transaction,
// and leaves its connections usable.
func TestSQLiteInterruptsSteps(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	stopsWhenCanceled(t, "read pool", db.Read())
	err := db.Tx(context.Background(), func(q store.Querier) error {
		stopsWhenCanceled(t, "transaction", q)
		_, err := q.ExecContext(context.Background(), "CREATE TABLE after_interrupt (x INTEGER)")
		return err
	})
	if err != nil {
		t.Errorf("the transaction after the interrupt: %v", err)
	}
	var n int
	if err := db.Read().QueryRowContext(context.Background(), "SELECT count(*) FROM after_interrupt").Scan(&n); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("the read pool after the interrupts: %v", err)
	}
}
