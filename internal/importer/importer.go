package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/files"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/transfer"
)

// Options says where an import reads and writes.
type Options struct {
	Source *Client
	DB     *store.DB
	// Storage and Spool are Trove's file storage and the directory files
	// are spooled in before Put (files.OpenStorage gives both). A nil
	// Storage leaves every file URL as it is.
	Storage files.Storage
	Spool   string
	// SourceFiles are the base URLs of the source's file server; files
	// under them are copied.
	SourceFiles []string
	// FilesURL is Trove's public files URL the copied files get.
	FilesURL string
	// Company receives the imported records (ids are kept).
	Company string
	// Progress receives the progress bars (nil: io.Discard).
	Progress io.Writer
	// Now is the clock of event ingestion (nil: time.Now).
	Now func() time.Time
}

// Count is what happened to one kind of entity.
type Count struct {
	Kind     string
	Imported int
	Skipped  int
	Failed   int
}

// Report is the outcome of an import: counts per entity kind, the events
// written, the files copied, and every failure, each naming its entity.
type Report struct {
	Counts []*Count
	Events int
	Files  int
	// Failures name the entity (or file) and the cause.
	Failures []string
}

// Summary is a short account of the report, one line per kind.
func (r *Report) Summary() string {
	var b strings.Builder
	for _, c := range r.Counts {
		fmt.Fprintf(&b, "%-8s %d imported, %d already there, %d failed\n", c.Kind, c.Imported, c.Skipped, c.Failed)
	}
	fmt.Fprintf(&b, "events   %d written\nfiles    %d copied\n", r.Events, r.Files)
	return b.String()
}

// run is one import in progress.
type run struct {
	o     Options
	files *fileCopier
	rep   *Report
	// sourceQueues keeps the queues' entries until the tasks are in.
	sourceQueues []*sourceQueue
}

// Run imports everything the source's key may read: projects, queues,
// models (with their events), tasks (with their events) and queue
// entries. A record that is already in the store unchanged is skipped,
// so a rerun resumes. A source error on one record, or on the listing of
// one kind, is reported and the import goes on; the error return is for
// an import that cannot go on (the target company cannot be written, ctx
// ended).
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	r := &run{o: o, rep: &Report{}, files: newFileCopier(o.Source, o.Storage, o.Spool, o.Company, o.SourceFiles, o.FilesURL)}
	if err := ensureCompany(ctx, o.DB, o.Company); err != nil {
		return nil, fmt.Errorf("import: target company %s: %w", o.Company, err)
	}
	steps := []struct {
		kind string
		fn   func(context.Context, *Count) error
	}{
		{"projects", r.projects}, {"queues", r.queues}, {"models", r.models}, {"tasks", r.tasks}, {"entries", r.queueEntries},
	}
	for _, s := range steps {
		c := &Count{Kind: s.kind}
		r.rep.Counts = append(r.rep.Counts, c)
		err := s.fn(ctx, c)
		if ctx.Err() != nil {
			return r.rep, fmt.Errorf("import %s: interrupted: %w", s.kind, ctx.Err())
		}
		if err != nil {
			// the listing failed: the other kinds may still come
			r.fail(c, s.kind, "(listing)", err)
		}
	}
	r.rep.Files = r.files.copied
	r.rep.Failures = append(r.rep.Failures, r.files.failed...)
	return r.rep, nil
}

// fail records a per-record failure.
func (r *run) fail(c *Count, what, id string, err error) {
	c.Failed++
	r.rep.Failures = append(r.rep.Failures, fmt.Sprintf("%s %s: %v", what, id, err))
}

// bar starts a progress bar over n records of a kind.
func (r *run) bar(kind string, n int) *transfer.Progress {
	p := transfer.NewProgress(r.o.Progress, int64(n))
	p.Label(kind)
	return p
}

// ensureCompany creates the receiving company unless it exists (an
// existing one keeps its name).
func ensureCompany(ctx context.Context, db *store.DB, id string) error {
	if _, err := db.GetCompany(ctx, id); err == nil {
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	name := id
	if id == auth.DefaultCompanyID {
		name = auth.DefaultCompanyName
	}
	return db.EnsureCompany(ctx, store.Company{ID: id, Name: name})
}
