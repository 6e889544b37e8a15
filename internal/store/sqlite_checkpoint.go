package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Checkpoints off the writer's path. SQLite's automatic checkpoint runs
// in the connection that commits, once the write-ahead log passes its
// threshold: the one writer then copies the log's pages into the
// database file and waits for two fsyncs before its caller is answered.
// A trace of 4 clients ingesting 1000-point batches showed the writer in
// that checkpoint a sixth of its time. Here a connection of its own runs
// PASSIVE checkpoints (which never block the writer or readers) shortly
// after commits, and the writer's own automatic checkpoint stays only as
// a bound: when the log reaches writerCheckpointPages anyway (the
// checkpointer fell behind, or readers held old pages), the writer
// finishes what is left, as SQLite would, and the log starts over.
const (
	// writerCheckpointPages is the writer's wal_autocheckpoint (SQLite's
	// default is 1000 pages, 4 MiB at the default page size).
	writerCheckpointPages = 8000
	// checkpointEvery is the least time between two background
	// checkpoints: commits in between share one (and its fsyncs).
	checkpointEvery = 100 * time.Millisecond
	// checkpointIdle is how often the checkpointer looks even without a
	// commit it was told of (writes outside DB.Tx).
	checkpointIdle = time.Second
)

// checkpointer runs PASSIVE checkpoints of one SQLite database.
type checkpointer struct {
	conn *sql.DB
	kick chan struct{}
	stop chan struct{}
	done chan struct{}
}

func startCheckpointer(path string) (*checkpointer, error) {
	conn, err := sql.Open(interruptingDriverName, checkpointDSN(path))
	if err != nil {
		return nil, fmt.Errorf("open sqlite checkpointer: %w", err)
	}
	conn.SetMaxOpenConns(1)
	conn.SetMaxIdleConns(1)
	conn.SetConnMaxLifetime(0)
	c := &checkpointer{conn: conn, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// wake tells the checkpointer of a commit; it never blocks.
func (c *checkpointer) wake() {
	if c == nil {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run() {
	defer close(c.done)
	idle := time.NewTicker(checkpointIdle)
	defer idle.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
		case <-idle.C:
		}
		_, _ = c.checkpoint()
		select {
		case <-c.stop:
			return
		case <-time.After(checkpointEvery):
		}
	}
}

// checkpoint copies what it can of the log into the database file and
// returns how many of the log's frames are now in it. An error (the
// database busy or closing) is left to the next round and to the
// writer's bound.
func (c *checkpointer) checkpoint() (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var busy, logFrames, done int64
	err := c.conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logFrames, &done)
	return done, err
}

// close stops the checkpointer and closes its connection.
func (c *checkpointer) close() error {
	if c == nil {
		return nil
	}
	close(c.stop)
	<-c.done
	return c.conn.Close()
}
