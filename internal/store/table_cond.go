package store

import (
	"context"
	"fmt"
	"strings"
)

// UpdateIf rewrites rec's document and columns only while the stored row
// still satisfies cond (a SQL condition with ? placeholders); it reports
// whether the row was written. Optimistic writes (task status changes)
// use it so that two concurrent changes cannot both win.
func (t *Table[S, P]) UpdateIf(ctx context.Context, q Querier, rec P, cond string, condArgs ...any) (bool, error) {
	doc, err := encodeDoc(rec)
	if err != nil {
		return false, fmt.Errorf("encode %s: %w", t.Name, err)
	}
	sets := make([]string, len(t.Cols))
	for i, c := range t.Cols {
		sets[i] = c + " = ?"
	}
	args := append([]any{string(doc)}, rec.ColumnValues()...)
	args = append(args, rec.RecordID())
	args = append(args, condArgs...)
	res, err := q.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET doc = %s, %s WHERE id = ? AND (%s)",
		t.Name, t.DB.D.JSONParam(), strings.Join(sets, ", "), cond), args...)
	if t.DB.D.IsUniqueViolation(err) {
		return false, fmt.Errorf("update %s: %w", t.Name, ErrDuplicate)
	}
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}
