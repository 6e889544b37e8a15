// Package domain holds what the domain packages (tasks, projects, models,
// queues, workers, events, auth) share and what sits below both them and
// the HTTP layer: the narrow environment a domain function gets, the
// result of an update, and the visibility, tag and not-found idioms.
//
// Nothing here, and nothing in a domain package, imports internal/api,
// internal/rpc or net/http (TestDomainLayering checks it).
package domain

import (
	"context"
	"time"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// FileRemover deletes the files this server stores under the given URLs
// (artifacts, model weights, debug images of deleted records). The file
// server implements it; cascades call it after their transaction commits.
// Failures are the remover's to log: the records are gone either way.
type FileRemover interface {
	RemoveStoredFiles(ctx context.Context, company string, urls []string)
}

// Env is what a domain function may use: the store, the clock and the
// stored-file remover (nil: files are left alone).
type Env struct {
	DB    *store.DB
	Now   func() time.Time
	Files FileRemover
}

// Time returns the current time as a wire time (millisecond precision, UTC).
func (e *Env) Time() jsonx.Time {
	return jsonx.Time{Time: e.Now().UTC().Truncate(time.Millisecond)}
}

// RemoveFiles deletes stored files under the URLs of the given lists, if a
// remover is configured. Call it after the deleting transaction committed.
func (e *Env) RemoveFiles(ctx context.Context, company string, lists ...[]string) {
	if e.Files == nil {
		return
	}
	var urls []string
	for _, l := range lists {
		urls = append(urls, l...)
	}
	if len(urls) > 0 {
		e.Files.RemoveStoredFiles(ctx, company, urls)
	}
}
