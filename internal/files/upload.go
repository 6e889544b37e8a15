package files

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/trove-ml/trove/internal/auth"
)

// multipartSlack is what a multipart body may carry beyond its files'
// bytes (boundaries, part headers) before the size limit refuses it unread.
const multipartSlack = 1 << 20

// copyBuffers are the 1 MiB buffers uploads are copied through: far fewer
// syscalls than io.Copy's 32 KiB for model-sized files.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 1<<20); return &b }}

// upload stores each part of a multipart body under its field name (the
// SDK sends one part) and answers the stored paths, as the reference does.
func (s *Service) upload(w http.ResponseWriter, r *http.Request, id *auth.Identity) {
	if s.maxUpload > 0 {
		if r.ContentLength > s.maxUpload+multipartSlack {
			s.fail(w, r, s.tooLarge())
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.maxUpload+multipartSlack)
	}
	s.waitForSpace(r)
	mr, err := multipartReader(r)
	if err != nil {
		s.fail(w, r, fmt.Errorf("%w: the body must be multipart/form-data whose field name is the storage path (%v)", ErrBadUpload, err))
		return
	}
	stored := []string{}
	var total int64
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			s.fail(w, r, s.bodyError(err))
			return
		}
		name := part.FormName()
		if name == "" {
			part.Close()
			s.fail(w, r, fmt.Errorf("%w: a multipart part has no field name; the field name is the storage path", ErrBadPath))
			return
		}
		p, err := CleanPath(name)
		if err != nil {
			part.Close()
			s.fail(w, r, err)
			return
		}
		n, err := s.receive(r.Context(), Key{Company: id.CompanyID, Path: p}, part, total)
		part.Close()
		if err != nil {
			s.fail(w, r, err)
			return
		}
		total += n
		stored = append(stored, p)
	}
	if len(stored) == 0 {
		s.fail(w, r, fmt.Errorf("%w: no file in the upload; send a multipart part whose field name is the storage path", ErrBadUpload))
		return
	}
	body, _ := json.Marshal(stored)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// multipartReader is r.MultipartReader with a 1 MiB read buffer: the
// multipart parser hands out at most a buffer's worth per read, and its
// default 4 KiB would cost a syscall and a boundary scan per 4 KiB.
func multipartReader(r *http.Request) (*multipart.Reader, error) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return nil, err
	}
	if mt != "multipart/form-data" && mt != "multipart/mixed" {
		return nil, fmt.Errorf("content type %s", mt)
	}
	if params["boundary"] == "" {
		return nil, fmt.Errorf("no multipart boundary")
	}
	return multipart.NewReader(bufio.NewReaderSize(r.Body, 1<<20), params["boundary"]), nil
}

// receive spools one part to a temp file and hands the complete file to
// the storage; a failed or truncated part leaves nothing behind.
func (s *Service) receive(ctx context.Context, key Key, part io.Reader, used int64) (int64, error) {
	f, err := os.CreateTemp(s.spool, "upload-*")
	if err != nil {
		return 0, spoolError(err)
	}
	defer removeSpooled(f)
	src, limit := part, int64(-1)
	if s.maxUpload > 0 {
		limit = s.maxUpload - used
		src = io.LimitReader(part, limit+1)
	}
	buf := copyBuffers.Get().(*[]byte)
	dst := &spoolWriter{f: f, ctx: ctx, deadline: time.Now().Add(time.Duration(faultHold.Load()))}
	n, err := io.CopyBuffer(dst, src, *buf)
	copyBuffers.Put(buf)
	switch {
	case dst.err != nil:
		return n, spoolError(dst.err)
	case err != nil:
		return n, s.bodyError(err)
	case limit >= 0 && n > limit:
		return n, s.tooLarge()
	}
	return n, s.store.Put(ctx, key, f, n)
}

// spoolWriter writes to the spool file and keeps its error apart from the
// body's read errors. A write that finds the disk full is retried until
// the fault hold's deadline (the part is in hand; the SDK retries a failed
// upload only a few times at once), so a disk freed meanwhile loses
// nothing.
type spoolWriter struct {
	f        *os.File
	ctx      context.Context
	deadline time.Time
	err      error
}

func (w *spoolWriter) Write(b []byte) (int, error) {
	done := 0
	for {
		n, err := w.f.Write(b[done:])
		done += n
		if err == nil {
			return done, nil
		}
		full := errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
		if !full || time.Now().After(w.deadline) || w.ctx.Err() != nil {
			w.err = err
			return done, err
		}
		select {
		case <-w.ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// removeSpooled closes a spool file and removes it unless Put renamed it
// away (another upload may have its name by now).
func removeSpooled(f *os.File) {
	held, herr := f.Stat()
	f.Close()
	if named, err := os.Stat(f.Name()); herr == nil && err == nil && os.SameFile(held, named) {
		_ = os.Remove(f.Name())
	}
}

func spoolError(err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return fmt.Errorf("%w: %v", ErrNoSpace, err)
	}
	return fmt.Errorf("spooling upload: %w", err)
}

// bodyError explains a failure to read the request body.
func (s *Service) bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return s.tooLarge()
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: the multipart body ended before its closing boundary (truncated upload); the file was not stored", ErrBadUpload)
	}
	return fmt.Errorf("%w: reading the multipart body: %v", ErrBadUpload, err)
}

func (s *Service) tooLarge() error {
	limit := fmt.Sprintf("%d bytes", s.maxUpload)
	if s.maxUpload%(1<<20) == 0 {
		limit = fmt.Sprintf("%d MB", s.maxUpload>>20)
	}
	return fmt.Errorf("%w: the upload is larger than the limit of %s (files.max_upload_mb); the file was not stored", ErrTooLarge, limit)
}

// spoolFree reports the bytes free for the spool directory (statfs);
// tests replace it.
var spoolFree = func(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}

// waitForSpace holds an upload, before its body is read, while the spool
// directory's filesystem has less free space than the body (plus 1 MiB),
// for up to the fault hold: the SDK retries a failed upload only a few
// times at once, so a disk freed within the hold loses nothing. Past the
// hold the upload goes on and fails as it must (503).
func (s *Service) waitForSpace(r *http.Request) {
	need := uint64(max(r.ContentLength, 0)) + 1<<20
	deadline := time.Now().Add(time.Duration(faultHold.Load()))
	for {
		free, err := spoolFree(s.spool)
		if err != nil || free >= need || time.Now().After(deadline) {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-time.After(500 * time.Millisecond):
		}
	}
}
