package app

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/config"
)

// The public host may carry its scheme; the printed clearml.conf and the
// stored files' URLs follow it, and a bare host stays http as before.
func TestSnippetPublicHostScheme(t *testing.T) {
	for _, c := range []struct {
		publicHost            string
		web, api, files, base string
	}{
		{"", "http://localhost:8080", "http://localhost:8008", "http://localhost:8081", "http://localhost:8081"},
		{"ml.corp", "http://ml.corp:8080", "http://ml.corp:8008", "http://ml.corp:8081", "http://ml.corp:8081"},
		{"http://ml.corp", "http://ml.corp:8080", "http://ml.corp:8008", "http://ml.corp:8081", "http://ml.corp:8081"},
		{"https://ml.corp", "https://ml.corp:8080", "https://ml.corp:8008", "https://ml.corp:8081", "https://ml.corp:8081"},
		{"https://ml.corp/", "https://ml.corp:8080", "https://ml.corp:8008", "https://ml.corp:8081", "https://ml.corp:8081"},
	} {
		t.Run(c.publicHost, func(t *testing.T) {
			cfg := config.Defaults()
			cfg.PublicHost = c.publicHost
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			s := ConfSnippet(cfg, "KEY", "SECRET")
			for _, line := range []string{"web_server: " + c.web, "api_server: " + c.api, "files_server: " + c.files} {
				if !strings.Contains(s, "    "+line+"\n") {
					t.Fatalf("snippet lacks %q:\n%s", line, s)
				}
			}
			if got := PublicFilesURL(cfg); got != c.base {
				t.Fatalf("files URL %q, want %q", got, c.base)
			}
		})
	}
}
