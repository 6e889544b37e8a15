package store

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"sync"
)

// Several Trove processes may serve one PostgreSQL database. They share
// locks (a background job runs in one process at a time, start-up steps
// one process after the other) and messages (a logout reaches every
// process at once). On SQLite one process owns the database and both are
// no-ops.

// RevocationChannel carries the session id of every logout: migration
// 0085 makes PostgreSQL send it on each insert into revoked_sessions,
// whichever process (or tool) wrote the row.
const RevocationChannel = "trove_revoked"

// clusterLockSpace is the high half of every cluster lock key, apart from
// the migration lock and anything else sharing the database.
const clusterLockSpace = int64(0x74726f76) << 32 // "trov"

// openLockPool opens the one connection that holds this process's
// cluster locks. Advisory locks belong to a session, so they are taken
// and released on the same connection, which is kept open.
func openLockPool(dsn string) *sql.DB {
	p, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil // sql.Open only fails on an unknown driver
	}
	p.SetMaxOpenConns(1)
	p.SetMaxIdleConns(1)
	p.SetConnMaxIdleTime(0)
	p.SetConnMaxLifetime(0)
	return p
}

// ClusterLockKey is the advisory lock key of a named lock.
func ClusterLockKey(name string) int64 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	return clusterLockSpace | int64(h.Sum32())
}

// Exclusive runs fn while holding the cluster lock called name. With wait
// it waits for the lock; without, it returns ran=false at once when
// another process (or goroutine) holds it. On SQLite only this process's
// goroutines can hold it.
func (db *DB) Exclusive(ctx context.Context, name string, wait bool, fn func(ctx context.Context) error) (ran bool, err error) {
	// Within this process first: an advisory lock is re-entrant for the
	// session that holds it, and SQLite has none.
	local, _ := db.localLocks.LoadOrStore(name, &sync.Mutex{})
	mu := local.(*sync.Mutex)
	if wait {
		mu.Lock()
	} else if !mu.TryLock() {
		return false, nil
	}
	defer mu.Unlock()
	lock := db.D.ClusterLock(wait)
	if lock == "" || db.locks == nil {
		return true, fn(ctx)
	}
	key := ClusterLockKey(name)
	var got bool
	if wait {
		_, err = db.locks.ExecContext(ctx, db.D.Rebind(lock), key)
		got = err == nil
	} else {
		err = db.locks.QueryRowContext(ctx, db.D.Rebind(lock), key).Scan(&got)
	}
	if err != nil {
		return false, fmt.Errorf("cluster lock %s: %w", name, err)
	}
	if !got {
		return false, nil
	}
	defer func() {
		// A lost connection has released the lock already.
		_, _ = db.locks.ExecContext(context.WithoutCancel(ctx), db.D.Rebind(db.D.ClusterUnlock()), key)
	}()
	return true, fn(ctx)
}

// WatchRevocations calls revoked with the session id of every logout any
// process makes, until ctx ends (nil) or the connection fails (an error:
// messages may have been missed). ready runs each time listening starts.
func (db *DB) WatchRevocations(ctx context.Context, ready func(), revoked func(session string)) error {
	return db.D.WatchChannel(ctx, db.dsn, RevocationChannel, ready, revoked)
}
