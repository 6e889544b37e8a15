package transfer

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// bulkDialect writes whole tables fast into an empty store.
type bulkDialect interface {
	bulkWrite(ctx context.Context, db *store.DB, p *copyPlan, src *rowSource, progress func(int)) error
	// afterBulk brings sequences level with the copied ids.
	afterBulk(ctx context.Context, db *store.DB, p *copyPlan) error
}

// sqliteBatchRows is how many rows one SQLite transaction of a copy holds.
const sqliteBatchRows = 20000

// bulkWrite inserts rows with multi-row INSERT statements prepared once,
// committing every sqliteBatchRows rows. Reading the source runs in its
// own goroutine, ahead of the writes.
func (sqliteCopy) bulkWrite(ctx context.Context, db *store.DB, p *copyPlan, src *rowSource, progress func(int)) error {
	// rows written here bypass DB.Tx: the series cache cannot follow them
	eventstore.Of(db).ForgetSeriesCache()
	ncol := len(p.cols)
	per := 30000 / ncol
	if per > 200 {
		per = 200
	}
	many, err := db.WritePool().PrepareContext(ctx, insertValues(p, per))
	if err != nil {
		return err
	}
	defer many.Close()
	one, err := db.WritePool().PrepareContext(ctx, insertValues(p, 1))
	if err != nil {
		return err
	}
	defer one.Close()
	chunks, stop := readChunks(src, per)
	defer stop()
	for {
		tx, err := db.WritePool().BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		n, more, err := writeChunks(ctx, chunks, tx.StmtContext(ctx, many), tx.StmtContext(ctx, one), ncol, per)
		if err == nil {
			err = tx.Commit()
		}
		if err != nil {
			_ = tx.Rollback()
			return err
		}
		if n > 0 && progress != nil {
			progress(n)
		}
		if !more {
			return src.err
		}
	}
}

// readChunks reads src into flat chunks of up to per rows; stop ends the
// reader early.
func readChunks(src *rowSource, per int) (<-chan []any, func()) {
	out := make(chan []any, 8)
	done := make(chan struct{})
	go func() {
		defer close(out)
		ncol := len(src.cols)
		chunk := make([]any, 0, per*ncol)
		for src.next() {
			chunk = append(chunk, src.vals...)
			if len(chunk) == per*ncol {
				select {
				case out <- chunk:
				case <-done:
					return
				}
				chunk = make([]any, 0, per*ncol)
			}
		}
		if len(chunk) > 0 {
			select {
			case out <- chunk:
			case <-done:
			}
		}
	}()
	var once sync.Once
	return out, func() {
		once.Do(func() { close(done) })
		for range out {
		}
	}
}

// writeChunks writes chunks until a transaction's worth of rows: full
// chunks through many, a short last one row by row through one. more is
// false once the source is drained.
func writeChunks(ctx context.Context, chunks <-chan []any, many, one *sql.Stmt, ncol, per int) (n int, more bool, err error) {
	for n < sqliteBatchRows {
		chunk, ok := <-chunks
		if !ok {
			return n, false, nil
		}
		if len(chunk) == per*ncol {
			if _, err := many.ExecContext(ctx, chunk...); err != nil {
				return n, false, err
			}
		} else {
			for i := 0; i < len(chunk); i += ncol {
				if _, err := one.ExecContext(ctx, chunk[i:i+ncol]...); err != nil {
					return n, false, err
				}
			}
		}
		n += len(chunk) / ncol
	}
	return n, true, nil
}

// insertValues is an INSERT of rows rows of p's columns.
func insertValues(p *copyPlan, rows int) string {
	names := make([]string, len(p.cols))
	for i, c := range p.cols {
		names[i] = quoteIdent(c.name)
	}
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(p.cols)), ", ") + ")"
	vals := strings.TrimSuffix(strings.Repeat(one+", ", rows), ", ")
	return "INSERT INTO " + quoteIdent(p.Name) + " (" + strings.Join(names, ", ") + ") VALUES " + vals
}

func (sqliteCopy) afterBulk(context.Context, *store.DB, *copyPlan) error { return nil }

// pgProgressRows is how often a PostgreSQL COPY reports progress.
const pgProgressRows = 10000

// bulkWrite streams the table through one COPY FROM STDIN.
func (postgresCopy) bulkWrite(ctx context.Context, db *store.DB, p *copyPlan, src *rowSource, progress func(int)) error {
	conn, err := db.WritePool().Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	names := make([]string, len(p.cols))
	for i, c := range p.cols {
		names[i] = c.name
	}
	cs := &copySource{src: src, progress: progress}
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		_, err := sc.Conn().CopyFrom(ctx, pgx.Identifier{p.Name}, names, cs)
		return err
	})
	if cs.pending > 0 && progress != nil {
		progress(cs.pending)
	}
	return err
}

// afterBulk moves each identity sequence past the highest copied id, so
// later inserts do not collide with copied rows.
func (postgresCopy) afterBulk(ctx context.Context, db *store.DB, p *copyPlan) error {
	for _, col := range p.identity {
		q := fmt.Sprintf(`SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX(%s), 0) + 1, false) FROM %s`, quoteIdent(col), quoteIdent(p.Name))
		if _, err := db.WritePool().ExecContext(ctx, q, p.Name, col); err != nil {
			return fmt.Errorf("copy: reset id sequence of %s: %w", p.Name, err)
		}
	}
	return nil
}

// copySource adapts rowSource to pgx.CopyFromSource.
type copySource struct {
	src      *rowSource
	progress func(int)
	pending  int
}

func (c *copySource) Next() bool {
	if !c.src.next() {
		return false
	}
	c.pending++
	if c.pending >= pgProgressRows && c.progress != nil {
		c.progress(c.pending)
		c.pending = 0
	}
	return true
}

func (c *copySource) Values() ([]any, error) { return c.src.vals, nil }

func (c *copySource) Err() error { return c.src.err }
