package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// cors_origins comes from YAML (a comma-separated string or a list),
// TROVE_CORS_ORIGINS and --cors-origins, later over earlier; "*" and
// non-origins stop the start.
func TestCORSOrigins(t *testing.T) {
	dir := t.TempDir()
	str := filepath.Join(dir, "str.yaml")
	list := filepath.Join(dir, "list.yaml")
	star := filepath.Join(dir, "star.yaml")
	for p, text := range map[string]string{
		str:  "cors_origins: https://a.example, http://b.example:3000\n",
		list: "cors_origins:\n  - https://a.example\n  - http://b.example:3000\n",
		star: "cors_origins: '*'\n",
	} {
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ab := OriginList{"https://a.example", "http://b.example:3000"}
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want OriginList
		err  string
	}{
		{name: "default: none listed", want: nil},
		{name: "yaml string", args: []string{"--config", str}, want: ab},
		{name: "yaml list", args: []string{"--config", list}, want: ab},
		{name: "env over yaml", args: []string{"--config", list}, env: map[string]string{"TROVE_CORS_ORIGINS": "https://c.example"}, want: OriginList{"https://c.example"}},
		{name: "flag over env", args: []string{"--cors-origins", " https://d.example ,"}, env: map[string]string{"TROVE_CORS_ORIGINS": "https://c.example"}, want: OriginList{"https://d.example"}},
		{name: "wildcard in yaml", args: []string{"--config", star}, err: "not allowed"},
		{name: "wildcard flag", args: []string{"--cors-origins", "https://a.example,*"}, err: "not allowed"},
		{name: "a path", args: []string{"--cors-origins", "https://a.example/ui"}, err: "not an origin"},
		{name: "no scheme", env: map[string]string{"TROVE_CORS_ORIGINS": "a.example"}, err: "not an origin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Load(c.args, func(k string) string { return c.env[k] })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "cors_origins") {
					t.Fatalf("want error %q naming cors_origins, got %v", c.err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cfg.CORSOrigins, c.want) {
				t.Fatalf("got %q, want %q", cfg.CORSOrigins, c.want)
			}
		})
	}
}
