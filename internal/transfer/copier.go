package transfer

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/trove-ml/trove/internal/store"
)

// CopyTable is one table a copy moves, with its row count in the source
// snapshot.
type CopyTable struct {
	Name string
	Rows int64
}

// Copier moves every table of one store into another, empty one of either
// backend, keeping ids. The source is read inside one read-only snapshot
// transaction, so a running server can keep writing meanwhile.
type Copier struct {
	src, dst *store.DB
	snap     *sql.Tx
	srcQ     store.Querier
	tables   []copyPlan
}

// copyPlan is the column mapping of one table.
type copyPlan struct {
	CopyTable
	// cols are the target columns the copy writes, kinds as the target
	// declares them; order is the source's ORDER BY ("" = none).
	cols  []catalogColumn
	order string
	// identity columns whose PostgreSQL sequence follows the copied ids.
	identity []string
}

// NewCopier opens the source snapshot, maps the tables of both schemas and
// checks that the target holds no rows.
func NewCopier(ctx context.Context, src, dst *store.DB) (*Copier, error) {
	opts := &sql.TxOptions{ReadOnly: true}
	if src.D.Name() == "postgres" {
		opts.Isolation = sql.LevelRepeatableRead
	}
	snap, err := src.ReadPool().BeginTx(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("copy: open source snapshot: %w", err)
	}
	c := &Copier{src: src, dst: dst, snap: snap, srcQ: store.Rebound(snap, src.D)}
	if err := c.plan(ctx); err != nil {
		_ = snap.Rollback()
		return nil, err
	}
	return c, nil
}

// Close ends the source snapshot.
func (c *Copier) Close() error { return c.snap.Rollback() }

// Tables lists the copied tables in copy order (referenced tables first).
func (c *Copier) Tables() []CopyTable {
	out := make([]CopyTable, len(c.tables))
	for i, t := range c.tables {
		out[i] = t.CopyTable
	}
	return out
}

// CopiedTableNames lists the tables a copy between two stores of this
// database's schema moves, and DerivedTableNames those it leaves to the
// target; together they name every table.
func CopiedTableNames(ctx context.Context, db *store.DB) ([]string, error) {
	names, err := backendOf(db.D).tableNames(ctx, store.Rebound(db.ReadPool(), db.D))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range sortedKeys(names) {
		if _, derived := derivedTables[n]; !derived {
			out = append(out, n)
		}
	}
	return out, nil
}

// DerivedTableNames names the tables a copy leaves to the target.
func DerivedTableNames() []string {
	out := make([]string, 0, len(derivedTables))
	for n := range derivedTables {
		out = append(out, n)
	}
	return out
}

func (c *Copier) plan(ctx context.Context) error {
	sd, dd := backendOf(c.src.D), backendOf(c.dst.D)
	dstQ := store.Rebound(c.dst.WritePool(), c.dst.D)
	srcNames, err := sd.tableNames(ctx, c.srcQ)
	if err != nil {
		return fmt.Errorf("copy: read source schema: %w", err)
	}
	dstNames, err := dd.tableNames(ctx, dstQ)
	if err != nil {
		return fmt.Errorf("copy: read target schema: %w", err)
	}
	var dstTables []catalogTable
	for _, name := range sortedKeys(dstNames) {
		if _, derived := derivedTables[name]; derived {
			continue
		}
		if !srcNames[name] {
			return fmt.Errorf("copy: the source has no table %s: both stores must run the same Trove version", name)
		}
		t, err := dd.describe(ctx, dstQ, name)
		if err != nil {
			return err
		}
		dstTables = append(dstTables, t)
	}
	for _, name := range sortedKeys(srcNames) {
		if _, derived := derivedTables[name]; !derived && !dstNames[name] {
			return fmt.Errorf("copy: the target has no table %s: both stores must run the same Trove version", name)
		}
	}
	ordered, err := orderByRefs(dstTables)
	if err != nil {
		return err
	}
	var notEmpty []string
	for _, dt := range ordered {
		st, err := sd.describe(ctx, c.srcQ, dt.name)
		if err != nil {
			return err
		}
		p, err := planTable(st, dt, sd, dd)
		if err != nil {
			return err
		}
		if p.Rows, err = countRows(ctx, c.srcQ, c.src.D, dt.name); err != nil {
			return err
		}
		n, err := countRows(ctx, dstQ, c.dst.D, dt.name)
		if err != nil {
			return err
		}
		if n > 0 {
			notEmpty = append(notEmpty, fmt.Sprintf("%s (%d rows)", dt.name, n))
		}
		c.tables = append(c.tables, p)
	}
	if len(notEmpty) > 0 {
		return fmt.Errorf("copy: the target is not empty: %s; copy only into a new, empty store", strings.Join(notEmpty, ", "))
	}
	return nil
}

// planTable maps the target's columns onto the source's.
func planTable(st, dt catalogTable, sd, dd catalogDialect) (copyPlan, error) {
	have := map[string]bool{}
	for _, c := range st.columns {
		have[c.name] = true
	}
	p := copyPlan{CopyTable: CopyTable{Name: dt.name}, order: sd.copyOrder(st)}
	for _, c := range dt.columns {
		if dd.generated(c.name) {
			continue
		}
		if !have[c.name] {
			return p, fmt.Errorf("copy: the source table %s has no column %s: both stores must run the same Trove version", dt.name, c.name)
		}
		p.cols = append(p.cols, c)
		if c.identity {
			p.identity = append(p.identity, c.name)
		}
	}
	return p, nil
}

func countRows(ctx context.Context, q store.Querier, d store.Dialect, table string) (int64, error) {
	var n int64
	if err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+copyFrom(d, table)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count %s: %w", table, err)
	}
	return n, nil
}

// CopyTable streams one table from the snapshot into the target; progress
// is called with the number of rows written since its last call.
func (c *Copier) CopyTable(ctx context.Context, name string, progress func(rows int)) error {
	var p *copyPlan
	for i := range c.tables {
		if c.tables[i].Name == name {
			p = &c.tables[i]
		}
	}
	if p == nil {
		return fmt.Errorf("copy: no table %s", name)
	}
	names := make([]string, len(p.cols))
	for i, col := range p.cols {
		names[i] = quoteIdent(col.name)
	}
	query := "SELECT " + strings.Join(names, ", ") + " FROM " + copyFrom(c.src.D, name)
	if p.order != "" {
		query += " ORDER BY " + p.order
	}
	// Large tables load faster without their secondary indexes, which are
	// built once at the end (a failed copy leaves them out, but its target
	// is refused as not empty anyway).
	var dropped []indexDef
	if p.Rows >= rebuildIndexesFrom {
		var err error
		if dropped, err = c.dropIndexes(ctx, name); err != nil {
			return err
		}
	}
	rows, err := c.snap.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("copy: read %s: %w", name, err)
	}
	defer rows.Close()
	src := &rowSource{rows: rows, cols: p.cols}
	if err := backendOf(c.dst.D).bulkWrite(ctx, c.dst, p, src, progress); err != nil {
		return fmt.Errorf("copy: write %s: %w", name, err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("copy: read %s: %w", name, err)
	}
	for _, ix := range dropped {
		if _, err := c.dst.WritePool().ExecContext(ctx, ix.create); err != nil {
			return fmt.Errorf("copy: rebuild index %s: %w", ix.name, err)
		}
	}
	return backendOf(c.dst.D).afterBulk(ctx, c.dst, p)
}

// rebuildIndexesFrom is the row count from which a table's secondary
// indexes are dropped during its copy and rebuilt after it.
var rebuildIndexesFrom int64 = 50000

func (c *Copier) dropIndexes(ctx context.Context, table string) ([]indexDef, error) {
	ixs, err := backendOf(c.dst.D).secondaryIndexes(ctx, store.Rebound(c.dst.WritePool(), c.dst.D), table)
	if err != nil {
		return nil, fmt.Errorf("copy: indexes of %s: %w", table, err)
	}
	for _, ix := range ixs {
		if _, err := c.dst.WritePool().ExecContext(ctx, "DROP INDEX "+quoteIdent(ix.name)); err != nil {
			return nil, fmt.Errorf("copy: drop index %s for the load: %w", ix.name, err)
		}
	}
	return ixs, nil
}
