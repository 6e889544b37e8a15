package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/trove-ml/trove/internal/config"
)

// s3PartSize bounds the memory of one upload to the bucket (minio-go
// buffers a part per upload thread).
const s3PartSize = 16 << 20

// S3 keeps files in an S3-compatible bucket as objects
// <prefix><company>/<path>. Uploads are spooled to local disk first, so
// only complete files are sent; the bucket stores an object whole or not
// at all.
type S3 struct {
	client *minio.Client
	bucket string
	prefix string
}

// NewS3 connects to the bucket described by cfg, creating it when it does
// not exist yet.
func NewS3(ctx context.Context, cfg config.FilesS3) (*S3, error) {
	ep := cfg.Endpoint
	if !strings.Contains(ep, "://") {
		ep = "https://" + ep
	}
	u, err := url.Parse(ep)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("files.s3.endpoint %q: want http(s)://host[:port]", cfg.Endpoint)
	}
	creds := credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, "")
	if cfg.AccessKey == "" {
		creds = credentials.NewChainCredentials([]credentials.Provider{
			&credentials.EnvAWS{}, &credentials.EnvMinio{}, &credentials.IAM{}})
	}
	client, err := minio.New(u.Host, &minio.Options{Creds: creds, Secure: u.Scheme == "https", Region: cfg.Region})
	if err != nil {
		return nil, fmt.Errorf("files.s3: %w", err)
	}
	s := &S3{client: client, bucket: cfg.Bucket, prefix: cfg.Prefix}
	ok, err := client.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("files.s3: bucket %q: %w", cfg.Bucket, err)
	}
	if !ok {
		if err := client.MakeBucket(ctx, cfg.Bucket, minio.MakeBucketOptions{Region: cfg.Region}); err != nil {
			return nil, fmt.Errorf("files.s3: create bucket %q: %w", cfg.Bucket, err)
		}
	}
	return s, nil
}

func (s *S3) object(key Key) string { return s.prefix + companyDir(key.Company) + "/" + key.Path }

// Put uploads the spooled file.
func (s *S3) Put(ctx context.Context, key Key, src *os.File, size int64) error {
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return err
	}
	// The object carries the headers Trove would send, for whoever reads
	// the bucket directly (a presigned or public URL).
	fh := headersFor(key.Path, false)
	_, err := s.client.PutObject(ctx, s.bucket, s.object(key), src, size,
		minio.PutObjectOptions{ContentType: fh.ContentType, ContentDisposition: fh.Disposition, PartSize: s3PartSize})
	if err != nil {
		return fmt.Errorf("files.s3: put %q: %w", key.Path, err)
	}
	return nil
}

// Open starts the GET of the whole object at once, so that a download
// streams the one version it began with even while the object is being
// replaced. minio-go pins that version (If-Match on the ETag of its first
// look); when a replacement lands between the look and the GET, Open
// starts over. A later seek becomes a ranged GET that fails, rather than
// mixes versions, when the object changed meanwhile.
func (s *S3) Open(ctx context.Context, key Key) (*Object, error) {
	for attempt := 0; ; attempt++ {
		o, err := s.open(ctx, key)
		if er := minio.ToErrorResponse(err); err != nil && attempt < 10 && (er.StatusCode == 412 || er.Code == "PreconditionFailed") {
			continue
		}
		if err != nil {
			return nil, s.error(key, err)
		}
		return o, nil
	}
}

func (s *S3) open(ctx context.Context, key Key) (*Object, error) {
	obj, err := s.client.GetObject(ctx, s.bucket, s.object(key), minio.GetObjectOptions{})
	if err != nil {
		return nil, err
	}
	info, err := obj.Stat()
	if err != nil {
		obj.Close()
		return nil, err
	}
	head := make([]byte, 1)
	n, err := obj.Read(head)
	if err != nil && err != io.EOF {
		obj.Close()
		return nil, err
	}
	r := &s3Reader{obj: obj, head: head[:n], size: info.Size, stream: int64(n)}
	return &Object{ReadSeekCloser: r, Size: info.Size, ModTime: info.LastModified}, nil
}

// s3Reader reads an object through its first GET's stream and seeks
// lazily: http.ServeContent's size probe (seek to the end and back) costs
// no request.
type s3Reader struct {
	obj    *minio.Object
	head   []byte // bytes read ahead at Open, at offset 0
	size   int64
	pos    int64 // where the caller is
	stream int64 // where obj's stream is
}

func (r *s3Reader) Read(p []byte) (int, error) {
	if r.pos < int64(len(r.head)) {
		n := copy(p, r.head[r.pos:])
		r.pos += int64(n)
		return n, nil
	}
	if r.pos >= r.size {
		return 0, io.EOF
	}
	if r.pos != r.stream {
		if _, err := r.obj.Seek(r.pos, io.SeekStart); err != nil {
			return 0, err
		}
		r.stream = r.pos
	}
	n, err := r.obj.Read(p)
	r.pos += int64(n)
	r.stream += int64(n)
	return n, err
}

func (r *s3Reader) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += r.pos
	case io.SeekEnd:
		off += r.size
	}
	if off < 0 {
		return 0, fmt.Errorf("files.s3: seek to a negative offset")
	}
	r.pos = off
	return off, nil
}

func (r *s3Reader) Close() error { return r.obj.Close() }

// Delete removes the object; S3 deletes of absent keys succeed, so it
// looks first to report ErrNotFound as the local disk does.
func (s *S3) Delete(ctx context.Context, key Key) error {
	if _, err := s.client.StatObject(ctx, s.bucket, s.object(key), minio.StatObjectOptions{}); err != nil {
		return s.error(key, err)
	}
	if err := s.client.RemoveObject(ctx, s.bucket, s.object(key), minio.RemoveObjectOptions{}); err != nil {
		return s.error(key, err)
	}
	return nil
}

func (s *S3) error(key Key, err error) error {
	var er minio.ErrorResponse
	if errors.As(err, &er) && (er.Code == minio.NoSuchKey || er.StatusCode == 404) {
		return fmt.Errorf("%w: %q", ErrNotFound, key.Path)
	}
	if errors.As(err, &er) && er.StatusCode >= 500 || !errors.As(err, &er) && s3Transient(err) {
		return fmt.Errorf("%w: files.s3 %q: %w", ErrStorageUnavailable, key.Path, err)
	}
	return fmt.Errorf("files.s3 %q: %w", key.Path, err)
}

// s3Transient says whether err, which S3 did not answer, is a failure to
// reach it (refused, reset, timed out) rather than a bug.
func s3Transient(err error) bool {
	var ne net.Error
	var ue *url.Error
	return errors.As(err, &ne) || errors.As(err, &ue) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}
