package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Several Trove processes may share one PostgreSQL database (see
// cluster.go); a SQLite database is owned by one process (lock.go), so
// its cluster methods have nothing to coordinate.

func (sqliteDialect) ClusterLock(bool) string { return "" }
func (sqliteDialect) ClusterUnlock() string   { return "" }

// WatchChannel on SQLite waits for ctx: no other process can send.
func (sqliteDialect) WatchChannel(ctx context.Context, _, _ string, ready func(), _ func(string)) error {
	ready()
	<-ctx.Done()
	return nil
}

// ClusterLock takes a session-level advisory lock: it is held until
// unlocked or until the session ends, so a crashed process frees it.
func (postgresDialect) ClusterLock(wait bool) string {
	if wait {
		return "SELECT pg_advisory_lock(?)"
	}
	return "SELECT pg_try_advisory_lock(?)"
}

func (postgresDialect) ClusterUnlock() string { return "SELECT pg_advisory_unlock(?)" }

// WatchChannel LISTENs on its own connection (a pooled one cannot wait
// for notifications) and calls ready once listening, so a caller can
// drop what it may have missed before.
func (postgresDialect) WatchChannel(ctx context.Context, dsn, channel string, ready func(), msg func(string)) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return fmt.Errorf("listen: connect: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return fmt.Errorf("listen %s: %w", channel, err)
	}
	ready()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("listen %s: %w", channel, err)
		}
		msg(n.Payload)
	}
}
