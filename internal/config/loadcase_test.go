package config

import (
	"reflect"
	"strings"
	"testing"
)

// loadCase is one settings case: flags and environment in, the setting
// picked from the loaded Config (or an error mentioning err) out.
type loadCase[T any] struct {
	name string
	args []string
	env  map[string]string
	want T
	err  string
}

// checkLoad runs Load for every case and compares pick(cfg) with want.
func checkLoad[T any](t *testing.T, cases []loadCase[T], pick func(Config) T) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Load(c.args, func(k string) string { return c.env[k] })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one mentioning %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := pick(cfg); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}
