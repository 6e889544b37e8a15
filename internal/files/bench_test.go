package files_test

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

// The benchmark: a 100 MB file uploaded to and downloaded from the
// file server, against cp(1) of the same file on the same disk. Run with
//
//	go test -run '^$' -bench . -benchtime 5x ./internal/files/
//
// Two clients: the standard net/http client (what a Go program would use;
// the Python SDK is slower still), and a zero-copy client (sendfile up,
// splice down) that leaves the server as the only cost worth measuring.

const benchSize = 100 << 20

// benchEnv is a SQLite Trove with its files port on loopback TCP and a
// 100 MB random file, all on the same disk (the test temp dir).
type benchEnv struct {
	url, token, src, dir string
}

func newBenchEnv(b *testing.B, fsync bool) *benchEnv {
	b.Helper()
	e := testenv.New(b, "sqlite", func(c *config.Config) { c.Files.Fsync = fsync })
	srv := httptest.NewServer(e.App.FilesHandler)
	b.Cleanup(srv.Close)
	dir := b.TempDir()
	src := filepath.Join(dir, "src.bin")
	f, err := os.Create(src)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.CopyN(f, rand.Reader, benchSize); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return &benchEnv{url: srv.URL, token: e.Token, src: src, dir: dir}
}

// multipartFrame is the SDK's one-part body around the file's bytes.
func multipartFrame(path string) (head []byte, tail, contentType string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_, _ = mw.CreateFormFile(path, path)
	return buf.Bytes(), "\r\n--" + mw.Boundary() + "--\r\n", mw.FormDataContentType()
}

// uploadHTTP posts the file with net/http, Content-Length set (as
// requests-toolbelt's encoder does).
func (be *benchEnv) uploadHTTP(b *testing.B, path string) {
	f, err := os.Open(be.src)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	head, tail, ct := multipartFrame(path)
	req, _ := http.NewRequest(http.MethodPost, be.url+"/", io.MultiReader(bytes.NewReader(head), f, strings.NewReader(tail)))
	req.ContentLength = int64(len(head)) + benchSize + int64(len(tail))
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+be.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		b.Fatalf("upload: %d", resp.StatusCode)
	}
}

// uploadZeroCopy writes the request by hand and sends the file's bytes
// with sendfile.
func (be *benchEnv) uploadZeroCopy(b *testing.B, path string) {
	conn := be.dial(b)
	defer conn.Close()
	f, err := os.Open(be.src)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	head, tail, ct := multipartFrame(path)
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: files\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
		be.token, ct, int64(len(head))+benchSize+int64(len(tail)))
	_, _ = conn.Write(head)
	if _, err := conn.ReadFrom(f); err != nil {
		b.Fatal(err)
	}
	_, _ = io.WriteString(conn, tail)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("upload: %v %v", resp, err)
	}
	resp.Body.Close()
}

// downloadHTTP gets the file with net/http into a file on the same disk
// (what the SDK's get_local_copy does), through a 1 MiB buffer.
func (be *benchEnv) downloadHTTP(b *testing.B, path, dst string, buf []byte) {
	req, _ := http.NewRequest(http.MethodGet, be.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+be.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	f, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	n, err := io.CopyBuffer(struct{ io.Writer }{f}, resp.Body, buf)
	if err != nil || n != benchSize || resp.StatusCode != 200 {
		b.Fatalf("download: %d bytes, status %d, %v", n, resp.StatusCode, err)
	}
}

// downloadZeroCopy reads the reply's headers, then splices the body from
// the socket into the file.
func (be *benchEnv) downloadZeroCopy(b *testing.B, path, dst string) {
	conn := be.dial(b)
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: files\r\nAuthorization: Bearer %s\r\n\r\n", path, be.token)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 || resp.ContentLength != benchSize {
		b.Fatalf("download: %v %v", resp, err)
	}
	f, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buffered, _ := br.Peek(br.Buffered())
	_, _ = f.Write(buffered)
	n, err := f.ReadFrom(io.LimitReader(conn, benchSize-int64(len(buffered))))
	if err != nil || int64(len(buffered))+n != benchSize {
		b.Fatalf("download: %d bytes, %v", int64(len(buffered))+n, err)
	}
}

func (be *benchEnv) dial(b *testing.B) *net.TCPConn {
	conn, err := net.Dial("tcp", strings.TrimPrefix(be.url, "http://"))
	if err != nil {
		b.Fatal(err)
	}
	return conn.(*net.TCPConn)
}

// BenchmarkUpload100MB: POST / of 100 MB, received, (synced) and renamed
// into place; with fsync (the default) and without.
func BenchmarkUpload100MB(b *testing.B) {
	for _, fsync := range []bool{true, false} {
		be := newBenchEnv(b, fsync)
		for _, client := range []string{"net-http", "zero-copy"} {
			b.Run(fmt.Sprintf("fsync=%v/%s", fsync, client), func(b *testing.B) {
				b.SetBytes(benchSize)
				for i := 0; b.Loop(); i++ {
					path := fmt.Sprintf("/bench/model-%d.bin", i%2)
					if client == "net-http" {
						be.uploadHTTP(b, path)
					} else {
						be.uploadZeroCopy(b, path)
					}
				}
			})
		}
	}
}

// BenchmarkDownload100MB: GET of 100 MB (sendfile on the server) into a
// file on the same disk.
func BenchmarkDownload100MB(b *testing.B) {
	be := newBenchEnv(b, false)
	be.uploadHTTP(b, "/bench/model.bin")
	dst := filepath.Join(be.dir, "dst.bin")
	buf := make([]byte, 1<<20)
	for _, client := range []string{"net-http", "zero-copy"} {
		b.Run(client, func(b *testing.B) {
			b.SetBytes(benchSize)
			for b.Loop() {
				if client == "net-http" {
					be.downloadHTTP(b, "/bench/model.bin", dst, buf)
				} else {
					be.downloadZeroCopy(b, "/bench/model.bin", dst)
				}
			}
		})
	}
}

// BenchmarkCp100MB is the baseline: cp(1) of the same file on the same
// disk, and cp followed by an fsync of the copy (an upload's durability).
func BenchmarkCp100MB(b *testing.B) {
	be := newBenchEnv(b, false)
	dst := filepath.Join(be.dir, "cp.bin")
	for _, fsync := range []bool{false, true} {
		b.Run(fmt.Sprintf("fsync=%v", fsync), func(b *testing.B) {
			b.SetBytes(benchSize)
			for b.Loop() {
				_ = os.Remove(dst)
				if out, err := exec.Command("cp", be.src, dst).CombinedOutput(); err != nil {
					b.Fatalf("cp: %v %s", err, out)
				}
				if fsync {
					f, err := os.Open(dst)
					if err != nil {
						b.Fatal(err)
					}
					if err := f.Sync(); err != nil {
						b.Fatal(err)
					}
					f.Close()
				}
			}
		})
	}
}

// BenchmarkLoopbackTCP100MB is the ceiling of any file server on this
// machine: the file sent with sendfile over loopback TCP and spliced into
// a file, with no HTTP and no server logic at all.
func BenchmarkLoopbackTCP100MB(b *testing.B) {
	be := newBenchEnv(b, false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if f, err := os.Open(be.src); err == nil {
				_, _ = c.(*net.TCPConn).ReadFrom(f)
				f.Close()
			}
			c.Close()
		}
	}()
	dst := filepath.Join(be.dir, "tcp.bin")
	b.SetBytes(benchSize)
	for b.Loop() {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(dst)
		if err != nil {
			b.Fatal(err)
		}
		n, err := f.ReadFrom(io.LimitReader(c, benchSize))
		f.Close()
		c.Close()
		if err != nil || n != benchSize {
			b.Fatalf("tcp: %d bytes, %v", n, err)
		}
	}
}
