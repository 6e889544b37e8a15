package app

import (
	"slices"
	"testing"

	"github.com/trove-ml/trove/internal/config"
)

// The web address's origin is built from the public host's name whether
// or not --public-host names a scheme.
func TestAllowedOriginsFromPublicHost(t *testing.T) {
	for _, host := range []string{"ml.example.com", "http://ml.example.com", "https://ml.example.com", "https://ml.example.com/"} {
		cfg := config.Defaults()
		cfg.PublicHost, cfg.WebAddr = host, "0.0.0.0:8080"
		o, err := AllowedOrigins(cfg)
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		for _, want := range []string{"http://ml.example.com:8080", "https://ml.example.com:8080"} {
			if !slices.Contains(o.List(), want) {
				t.Errorf("public host %q: origins %v lack %s", host, o.List(), want)
			}
		}
	}
}
