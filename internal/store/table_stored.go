package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Ingest keeps a task's summary (last_metrics, metric_stats, ...) in its
// document. Decoding and encoding that document is most of a small
// batch's work, so ingest does it before its transaction on a copy read
// outside it, and inside the transaction only compares the row's version
// with the copy's (see events.taskUpkeep). These methods give the stored
// bytes and versions, and write a document encoded ahead.

// StoredDoc is a record's document as stored, the record decoded from
// it, and the version of its row (Dialect.RowVersion).
type StoredDoc[P any] struct {
	Raw     []byte
	Rec     P
	Version string
}

// GetStored loads a record visible to company with its stored bytes and
// row version.
func (t *Table[S, P]) GetStored(ctx context.Context, q Querier, id, company string) (*StoredDoc[P], error) {
	var raw []byte
	var version string
	err := q.QueryRowContext(ctx, "SELECT doc, "+t.DB.D.RowVersion()+" FROM "+t.Name+" WHERE id = ? AND company = ?",
		id, company).Scan(&raw, &version)
	if err != nil {
		return nil, t.noRow(id, err)
	}
	rec, err := t.Decode(id, raw)
	if err != nil {
		return nil, err
	}
	return &StoredDoc[P]{Raw: raw, Rec: rec, Version: version}, nil
}

// LockVersion locks a record's row (on PostgreSQL) and returns its
// version only: when it is the one GetStored gave, the document read then
// is still the stored one, and is not read again.
func (t *Table[S, P]) LockVersion(ctx context.Context, q Querier, id, company string) (string, error) {
	var version string
	err := q.QueryRowContext(ctx, "SELECT "+t.DB.D.RowVersion()+" FROM "+t.Name+" WHERE id = ? AND company = ?"+t.DB.D.ForUpdate(),
		id, company).Scan(&version)
	return version, t.noRow(id, err)
}

// LockStoredBytes returns a record's stored document, locking its row on
// PostgreSQL, without decoding it.
func (t *Table[S, P]) LockStoredBytes(ctx context.Context, q Querier, id, company string) ([]byte, error) {
	var doc []byte
	err := q.QueryRowContext(ctx, "SELECT doc FROM "+t.Name+" WHERE id = ? AND company = ?"+t.DB.D.ForUpdate(), id, company).Scan(&doc)
	return doc, t.noRow(id, err)
}

func (t *Table[S, P]) noRow(id string, err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s %s: %w", t.Name, id, ErrNotFound)
	}
	return err
}

// EncodedRecord is a record ready to be written: its document and columns.
type EncodedRecord struct {
	ID string
	// Doc is a string: the statement's argument and, on SQLite, the row's
	// version are this one copy of it
	Doc  string
	Cols []any
	// TaskMemo is kept by EncodeTask for the task's next encoding.
	TaskMemo *TaskMemo
}

// Encode encodes rec for WriteEncoded.
func (t *Table[S, P]) Encode(rec P) (*EncodedRecord, error) {
	if task, ok := any(rec).(*Task); ok {
		// one pass: last_metrics' order serves the document and its
		// names' fingerprint column
		return EncodeTask(task, nil)
	}
	doc, err := encodeDoc(rec)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", t.Name, err)
	}
	return &EncodedRecord{ID: rec.RecordID(), Doc: string(doc), Cols: rec.ColumnValues()}, nil
}

// WriteEncoded rewrites a record's document and columns as Update does,
// from an encoding made ahead.
func (t *Table[S, P]) WriteEncoded(ctx context.Context, q Querier, e *EncodedRecord) error {
	_, err := q.ExecContext(ctx, t.writeEncodedSQL(""), e.args()...)
	return err
}

// WriteEncodedVersion is WriteEncoded returning the row's new version
// (Dialect.RowVersion), which it keeps once the transaction commits.
func (t *Table[S, P]) WriteEncodedVersion(ctx context.Context, q Querier, e *EncodedRecord) (string, error) {
	if t.DB.D.RowVersion() == "doc" {
		// the version is the document just written: not read back (a
		// 15 KB task document per batch on SQLite)
		res, err := q.ExecContext(ctx, t.writeEncodedSQL(""), e.args()...)
		if err != nil {
			return "", err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return "", err
		}
		if n == 0 {
			return "", t.noRow(e.ID, sql.ErrNoRows)
		}
		return e.Doc, nil
	}
	var version string
	err := q.QueryRowContext(ctx, t.writeEncodedSQL(" RETURNING "+t.DB.D.RowVersion()), e.args()...).Scan(&version)
	return version, t.noRow(e.ID, err)
}

func (t *Table[S, P]) writeEncodedSQL(suffix string) string {
	sets := make([]string, len(t.Cols))
	for i, c := range t.Cols {
		sets[i] = c + " = ?"
	}
	return fmt.Sprintf("UPDATE %s SET doc = %s, %s WHERE id = ?%s", t.Name, t.DB.D.JSONParam(), strings.Join(sets, ", "), suffix)
}

func (e *EncodedRecord) args() []any {
	args := append([]any{e.Doc}, e.Cols...)
	return append(args, e.ID)
}

// Decode decodes a stored document (from LockStoredBytes).
func (t *Table[S, P]) Decode(id string, raw []byte) (P, error) {
	rec := P(new(S))
	if err := decodeDoc(raw, rec); err != nil {
		return nil, fmt.Errorf("decode %s %s: %w", t.Name, id, err)
	}
	return rec, nil
}
