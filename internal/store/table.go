package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Record is a stored document with extracted columns.
type Record interface {
	// RecordID is the primary key.
	RecordID() string
	// ColumnValues returns values for Table.Cols, in order.
	ColumnValues() []any
}

// Table stores records of type S as JSON documents plus extracted columns.
// P is *S.
type Table[S any, P interface {
	*S
	Record
}] struct {
	DB   *DB
	Name string
	// Cols are the extracted columns (not id or doc); "company" must be one
	// of them for company scoping.
	Cols []string
}

// Insert adds rec; a unique-constraint failure returns ErrDuplicate.
func (t *Table[S, P]) Insert(ctx context.Context, q Querier, rec P) error {
	doc, err := encodeDoc(rec)
	if err != nil {
		return fmt.Errorf("encode %s: %w", t.Name, err)
	}
	ph := make([]string, len(t.Cols))
	for i := range ph {
		ph[i] = "?"
	}
	args := append([]any{rec.RecordID(), string(doc)}, rec.ColumnValues()...)
	_, err = q.ExecContext(ctx, fmt.Sprintf("INSERT INTO %s (id, doc, %s) VALUES (?, %s, %s)",
		t.Name, strings.Join(t.Cols, ", "), t.DB.D.JSONParam(), strings.Join(ph, ", ")), args...)
	if t.DB.D.IsUniqueViolation(err) {
		return fmt.Errorf("insert %s: %w", t.Name, ErrDuplicate)
	}
	return err
}

// docAppender is a record that writes its own document, faster than
// encoding/json's reflection (Task.AppendDoc).
type docAppender interface {
	AppendDoc(b []byte) ([]byte, error)
}

// encodeDoc is a record's stored document.
func encodeDoc(rec any) ([]byte, error) {
	if a, ok := rec.(docAppender); ok {
		return a.AppendDoc(nil)
	}
	return json.Marshal(rec)
}

// ErrDuplicate is returned (wrapped) when a unique constraint refuses a write.
var ErrDuplicate = errors.New("duplicate")

// Update rewrites rec's document and columns.
func (t *Table[S, P]) Update(ctx context.Context, q Querier, rec P) error {
	e, err := t.Encode(rec)
	if err != nil {
		return err
	}
	err = t.WriteEncoded(ctx, q, e)
	if t.DB.D.IsUniqueViolation(err) {
		return fmt.Errorf("update %s: %w", t.Name, ErrDuplicate)
	}
	return err
}

// Get loads one record visible to any of companies ("" = public records).
// With no companies given, the record is loaded whatever its company.
func (t *Table[S, P]) Get(ctx context.Context, q Querier, id string, companies ...string) (P, error) {
	return t.get(ctx, q, id, companies, "")
}

// GetForUpdate is Get inside a write transaction, locking the row on
// PostgreSQL (SQLite transactions are already exclusive).
func (t *Table[S, P]) GetForUpdate(ctx context.Context, q Querier, id string, companies ...string) (P, error) {
	return t.get(ctx, q, id, companies, t.DB.D.ForUpdate())
}

func (t *Table[S, P]) get(ctx context.Context, q Querier, id string, companies []string, suffix string) (P, error) {
	where, args := "id = ?", []any{id}
	if len(companies) > 0 {
		where += " AND company IN (" + Placeholders(len(companies)) + ")"
		for _, c := range companies {
			args = append(args, c)
		}
	}
	var doc []byte
	err := q.QueryRowContext(ctx, "SELECT doc FROM "+t.Name+" WHERE "+where+suffix, args...).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%s %s: %w", t.Name, id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	rec := P(new(S))
	if err := decodeDoc(doc, rec); err != nil {
		return nil, fmt.Errorf("decode %s %s: %w", t.Name, id, err)
	}
	return rec, nil
}

// Select loads the records matching a WHERE clause (with optional ORDER BY
// etc. after it).
func (t *Table[S, P]) Select(ctx context.Context, q Querier, where string, args ...any) ([]P, error) {
	rows, err := q.QueryContext(ctx, "SELECT doc FROM "+t.Name+" WHERE "+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []P
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		rec := P(new(S))
		if err := decodeDoc(doc, rec); err != nil {
			return nil, fmt.Errorf("decode %s: %w", t.Name, err)
		}
		out = append(out, rec)
	}
	return out, rows.Err()
}

// Delete removes a record; it reports whether one was removed.
func (t *Table[S, P]) Delete(ctx context.Context, q Querier, id string) (bool, error) {
	res, err := q.ExecContext(ctx, "DELETE FROM "+t.Name+" WHERE id = ?", id)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// Placeholders returns "?, ?, ..." for n values.
func Placeholders(n int) string {
	if n <= 0 {
		return "NULL"
	}
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// Args converts strings to a []any for query arguments.
func Args[T any](vals []T) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

// JSONArray encodes a string list as a JSON array ("[]" for nil).
func JSONArray(vals []string) string {
	if len(vals) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(vals)
	return string(b)
}

// GetRaw loads the stored JSON document of one record visible to any of
// companies, without decoding it (for reads that return it as is).
func (t *Table[S, P]) GetRaw(ctx context.Context, q Querier, id string, companies ...string) (json.RawMessage, error) {
	where, args := "id = ?", []any{id}
	if len(companies) > 0 {
		where += " AND company IN (" + Placeholders(len(companies)) + ")"
		args = append(args, Args(companies)...)
	}
	var doc []byte
	err := q.QueryRowContext(ctx, "SELECT doc FROM "+t.Name+" WHERE "+where, args...).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%s %s: %w", t.Name, id, ErrNotFound)
	}
	return doc, err
}
