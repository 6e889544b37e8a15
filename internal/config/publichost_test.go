package config

import "testing"

func TestPublicHostScheme(t *testing.T) {
	for _, c := range []struct {
		in, scheme, host string
		bad              bool
	}{
		{in: "", scheme: "http", host: ""},
		{in: "ml.corp", scheme: "http", host: "ml.corp"},
		{in: "http://ml.corp", scheme: "http", host: "ml.corp"},
		{in: "https://ml.corp", scheme: "https", host: "ml.corp"},
		{in: "HTTPS://ml.corp/", scheme: "https", host: "ml.corp"},
		{in: "ftp://ml.corp", bad: true},
		{in: "https://", bad: true},
		{in: "https://ml.corp/path", bad: true},
		{in: "https://user@ml.corp", bad: true},
	} {
		t.Run(c.in, func(t *testing.T) {
			cfg, err := Load([]string{"--public-host", c.in}, func(string) string { return "" })
			if c.bad {
				if err == nil {
					t.Fatalf("accepted %q", c.in)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.PublicScheme() != c.scheme || cfg.PublicHostName() != c.host {
				t.Fatalf("%q: scheme %q host %q", c.in, cfg.PublicScheme(), cfg.PublicHostName())
			}
		})
	}
}
