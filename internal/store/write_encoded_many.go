package store

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// Many records rewritten by one statement: ingest's group transactions
// write each task they hold once, and on PostgreSQL a statement per task
// made the name-index statement triggers (migrations 0091, 0096, 0104) run
// once per task. A task's first batch adds its metric names to count rows
// that every task of its project shares; written one by one, a group held
// those rows over one round trip and trigger call per task, and the other
// lanes queued behind it. Written together, the triggers add each name
// once per statement (by the number of tasks adding it).

// encodedRowSizes are the statement sizes of WriteEncodedVersions (a few
// shapes, so that prepared statements are reused).
var encodedRowSizes = []int{128, 32, 8, 2, 1}

// WriteEncodedVersions writes recs as WriteEncodedVersion does, returning
// each record's new row version in order. SQLite (one writer, row
// triggers run in-process) writes them one by one as before.
func (t *Table[S, P]) WriteEncodedVersions(ctx context.Context, q Querier, recs []*EncodedRecord) ([]string, error) {
	out := make([]string, 0, len(recs))
	if t.DB.D.RowVersion() == "doc" {
		for _, e := range recs {
			v, err := t.WriteEncodedVersion(ctx, q, e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	types, err := t.columnTypes(ctx, q)
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(recs); {
		n := len(recs) - i
		for _, size := range encodedRowSizes {
			if n >= size {
				n = size
				break
			}
		}
		if n == 1 {
			v, err := t.WriteEncodedVersion(ctx, q, recs[i])
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			i++
			continue
		}
		vs, err := t.writeEncodedRows(ctx, q, types, recs[i:i+n])
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
		i += n
	}
	return out, nil
}

// writeEncodedRows writes recs with one UPDATE ... FROM (VALUES ...).
func (t *Table[S, P]) writeEncodedRows(ctx context.Context, q Querier, types []string, recs []*EncodedRecord) ([]string, error) {
	args := make([]any, 0, len(recs)*(len(t.Cols)+2))
	for _, e := range recs {
		args = append(args, e.ID, e.Doc)
		args = append(args, e.Cols...)
	}
	rows, err := q.QueryContext(ctx, t.writeEncodedRowsSQL(types, len(recs)), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byID := make(map[string]string, len(recs))
	for rows.Next() {
		var id, version string
		if err := rows.Scan(&id, &version); err != nil {
			return nil, err
		}
		byID[id] = version
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]string, len(recs))
	for i, e := range recs {
		v, ok := byID[e.ID]
		if !ok {
			return nil, fmt.Errorf("%s %s: %w", t.Name, e.ID, ErrNotFound)
		}
		out[i] = v
	}
	return out, nil
}

// writeEncodedRowsSQL is the statement writing n records. The VALUES
// rows are typed by casts to the columns' own types: a placeholder in
// VALUES would be text, which is not assignable to a bigint or jsonb.
func (t *Table[S, P]) writeEncodedRowsSQL(types []string, n int) string {
	var b strings.Builder
	b.WriteString("UPDATE " + t.Name + " SET doc = v.doc")
	for _, c := range t.Cols {
		b.WriteString(", " + c + " = v." + c)
	}
	b.WriteString(" FROM (VALUES ")
	for r := 0; r < n; r++ {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(CAST(? AS " + types[0] + "), CAST(? AS " + types[1] + ")")
		for i := range t.Cols {
			b.WriteString(", CAST(? AS " + types[i+2] + ")")
		}
		b.WriteString(")")
	}
	b.WriteString(") AS v (id, doc, " + strings.Join(t.Cols, ", ") + ") WHERE " + t.Name + ".id = v.id RETURNING " +
		t.Name + ".id, " + t.DB.D.RowVersion())
	return b.String()
}

// columnTypes are the database types of id, doc and the table's columns,
// as the driver names them, read once per table.
var columnTypeCache sync.Map // "<dialect>/<table>" -> []string

func (t *Table[S, P]) columnTypes(ctx context.Context, q Querier) ([]string, error) {
	key := t.DB.D.Name() + "/" + t.Name
	if v, ok := columnTypeCache.Load(key); ok {
		return v.([]string), nil
	}
	rows, err := q.QueryContext(ctx, "SELECT id, doc, "+strings.Join(t.Cols, ", ")+" FROM "+t.Name+" WHERE 1 = 0")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	types := make([]string, len(cts))
	for i, ct := range cts {
		if types[i] = ct.DatabaseTypeName(); types[i] == "" {
			return nil, fmt.Errorf("%s: no type for column %s", t.Name, ct.Name())
		}
	}
	columnTypeCache.Store(key, types)
	return types, nil
}
