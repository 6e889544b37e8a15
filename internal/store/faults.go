package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// A fault is a failure of the store's environment, not of the request or
// of the server's code: the database cannot be reached, has no space left,
// is read-only, or stayed busy beyond its timeout. Such a failure ends
// when the environment recovers, so the API answers it with a 503 and
// Retry-After, which the SDK retries; every other failure stays a 500.

// Fault names a kind of store fault.
type Fault string

// The faults, worded for the client's error message.
const (
	FaultUnreachable Fault = "the database is unreachable"
	FaultNoSpace     Fault = "the database's disk is full"
	FaultReadOnly    Fault = "the database is read-only"
	FaultIO          Fault = "the database cannot read or write its files"
	FaultBusy        Fault = "the database is busy (locked beyond its timeout, or out of connections or memory)"
	FaultShutdown    Fault = "the database is shutting down or starting up"
)

// SQLite primary result codes (sqlite3.h).
const (
	sqliteBusy     = 5
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteFull     = 13
	sqliteCantOpen = 14
)

// FaultOf classifies err: the fault it reports, or "" when it is no
// store fault.
func FaultOf(err error) Fault {
	// A context's end is the caller's (its deadline or a client that
	// left), not the store's; context.DeadlineExceeded is a net.Error.
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return ""
	}
	if errors.Is(err, errConnLost) {
		return FaultUnreachable
	}
	var fe *faultError
	if errors.As(err, &fe) {
		return fe.fault
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqliteFull:
			return FaultNoSpace
		case sqliteReadOnly:
			return FaultReadOnly
		case sqliteIOErr:
			return FaultIO
		case sqliteCantOpen:
			return FaultUnreachable
		case sqliteBusy:
			return FaultBusy
		}
		return ""
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"): // connection exception
			return FaultUnreachable
		case pe.Code == "53100": // disk_full
			return FaultNoSpace
		case strings.HasPrefix(pe.Code, "53"): // insufficient resources: memory, connections
			return FaultBusy
		case pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03": // admin/crash shutdown, cannot connect now
			return FaultShutdown
		case pe.Code == "25006": // read_only_sql_transaction
			return FaultReadOnly
		}
		return ""
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return FaultUnreachable
	}
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return FaultNoSpace
	case errors.Is(err, syscall.EROFS):
		return FaultReadOnly
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH),
		errors.Is(err, driver.ErrBadConn):
		return FaultUnreachable
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return FaultUnreachable
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return FaultUnreachable
	}
	// pgx reports a connection that broke under a statement by text only.
	msg := err.Error()
	for _, s := range []string{"conn closed", "connection reset by peer", "broken pipe", "failed to receive message", "failed to write startup message"} {
		if strings.Contains(msg, s) {
			return FaultUnreachable
		}
	}
	return ""
}

// faultError is an error the store knows to be a fault by where it
// happened, where the error alone does not say.
type faultError struct {
	fault Fault
	err   error
}

func (e *faultError) Error() string { return e.err.Error() }
func (e *faultError) Unwrap() error { return e.err }

// markFault marks err of a transaction as a fault where the error alone
// is ambiguous: a PostgreSQL connection that broke under a transaction
// surfaces as a bare io.ErrUnexpectedEOF, which elsewhere (a truncated
// body) is no store fault.
func (db *DB) markFault(err error) error {
	if err != nil && db.IsPostgres() && errors.Is(err, io.ErrUnexpectedEOF) && FaultOf(err) == "" {
		return &faultError{fault: FaultUnreachable, err: err}
	}
	return err
}

// errConnLost is what a PostgreSQL connection's reads return once the
// server closed it (instead of io.EOF, which pgx hands up as a bare
// io.ErrUnexpectedEOF that names no database).
var errConnLost = errors.New("the database server closed the connection")

// markConnLoss makes the connections of pc say errConnLost when the
// server closes them.
func markConnLoss(pc *pgx.ConnConfig) {
	dial := pc.DialFunc
	pc.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return eofMarkingConn{c}, nil
	}
}

type eofMarkingConn struct{ net.Conn }

func (c eofMarkingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err == io.EOF {
		err = errConnLost
	}
	return n, err
}
