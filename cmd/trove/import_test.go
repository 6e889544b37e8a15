package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestImportCommand runs trove import as the command line does: into an
// empty data dir, then refused sources with messages that say why.
func TestImportCommand(t *testing.T) {
	ctx := context.Background()
	src := testenv.New(t, "sqlite")
	id := src.Call(t, "tasks.create", map[string]any{"name": "imported", "type": "training"}).OK(t).Str("id")
	dir := t.TempDir()
	args := []string{"--from", src.URL, "--key", testenv.AdminKey, "--secret", testenv.AdminSecret, "--data-dir", dir}
	if err := importStore(ctx, args); err != nil {
		t.Fatalf("import: %v", err)
	}
	if err := importStore(ctx, args); err != nil {
		t.Fatalf("second import: %v", err)
	}
	r := testenv.New(t, "sqlite", func(c *config.Config) { c.DataDir = dir })
	if got := r.Call(t, "tasks.get_by_id", map[string]any{"task": id}).OK(t).Str("task.name"); got != "imported" {
		t.Fatalf("the imported store lacks the task: %q", got)
	}

	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("<html>hello</html>")) }))
	defer web.Close()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no source", []string{"--data-dir", dir}, "--from"},
		{"not a URL", []string{"--from", "localhost:8008", "--key", "k", "--secret", "s", "--data-dir", dir}, "not an http(s):// URL"},
		{"no key", []string{"--from", src.URL, "--data-dir", dir}, "--key and --secret are required"},
		{"wrong secret", []string{"--from", src.URL, "--key", testenv.AdminKey, "--secret", "nope", "--data-dir", dir}, "refused the key pair"},
		{"nothing there", []string{"--from", "http://127.0.0.1:1", "--key", "k", "--secret", "s", "--data-dir", dir}, "cannot log in to the source http://127.0.0.1:1"},
		{"not the API", []string{"--from", web.URL, "--key", "k", "--secret", "s", "--data-dir", dir}, "not a ClearML API envelope"},
	} {
		err := importStore(ctx, c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

func TestGuessFilesURLs(t *testing.T) {
	for in, want := range map[string]string{
		"http://clearml.local:8008":  "http://clearml.local:8081",
		"https://api.clear.ml":       "https://files.clear.ml",
		"http://api.example.com:80/": "http://files.example.com:80",
		"http://trove.example.com":   "",
	} {
		if got := strings.Join(guessFilesURLs(in), ","); got != want {
			t.Errorf("guessFilesURLs(%q) = %q, want %q", in, got, want)
		}
	}
}
