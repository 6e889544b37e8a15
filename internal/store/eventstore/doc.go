// Package eventstore is the SQL of the event tables: scalar series,
// points and rollups, documents (plots, debug images, vectors), logs and
// navigation states. internal/events reaches them only through Of(db).
// It runs on the store's handle, dialect and transactions
// (internal/store); the event tables' migrations stay in the store's one
// sequence.
package eventstore
