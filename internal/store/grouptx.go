package store

import (
	"context"
	"database/sql/driver"
	"fmt"
)

// GroupTx is Tx for the events writer's group transactions: statements
// that each write many pages (a group's points land on the last leaf of
// every series it touches) while their sorts stay as small as the group.
// The dialect's GroupTxSettings apply to this transaction only.
//
// On SQLite they keep statement journals in memory. Inside a transaction
// a statement that may fail halfway journals every page it first
// changes, and past 64 KiB that journal went to a temporary file, one
// write system call per page: at 5,000 reporting experiments that was a
// tenth of the writer's time. The same setting also holds every sort of
// the connection in memory, so it is never left on the connection: a
// connection whose setting could not be restored is dropped.
func (db *DB) GroupTx(ctx context.Context, fn func(q Querier) error) error {
	enter, leave := db.D.GroupTxSettings()
	if enter == "" {
		return db.Tx(ctx, fn)
	}
	return db.retryTx(func() error { return db.groupTxOnce(ctx, enter, leave, fn) })
}

// groupTxOnce is one GroupTx attempt.
func (db *DB) groupTxOnce(ctx context.Context, enter, leave string, fn func(q Querier) error) error {
	cq, err := db.groupTxOnConn(ctx, enter, leave, fn)
	cq.prepareMissed(ctx) // needs the connection groupTxOnConn held
	return err
}

// groupTxOnConn runs the transaction on a connection held for it, with
// the settings around it.
func (db *DB) groupTxOnConn(ctx context.Context, enter, leave string, fn func(q Querier) error) (*cachedQuerier, error) {
	conn, err := db.w.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	defer conn.Close()
	defer func() {
		// runs whether the attempt failed or not, and after a panic
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), leave); err != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	if _, err := conn.ExecContext(ctx, enter); err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	return db.runTx(tx, true, fn)
}
