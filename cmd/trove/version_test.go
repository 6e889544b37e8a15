package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/rpc"
)

func TestHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--help"}, {"serve", "-h"}, {"credentials", "create", "--help"},
		{"backup", "--help"}, {"restore", "-h"}, {"copy", "--help"}, {"--help"}, {"help"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(context.Background(), args, func(string) string { return "" }, &out, &errOut); code != 0 {
				t.Fatalf("exit %d, want 0; stderr:\n%s", code, errOut.String())
			}
			if strings.Contains(out.String()+errOut.String(), "help requested") {
				t.Fatalf("help printed the flag package's error:\n%s%s", out.String(), errOut.String())
			}
		})
	}
}

func TestUsageErrorsExitNonZero(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{{nil, 2}, {[]string{"nonsense"}, 2}, {[]string{"serve", "--no-such-flag"}, 1}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), tc.args, func(string) string { return "" }, &out, &errOut); code != tc.want {
			t.Errorf("%v: exit %d, want %d", tc.args, code, tc.want)
		}
	}
}

func TestVersionNamesBuildAndAPI(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"version"}, func(string) string { return "" }, &out, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	got := out.String()
	for _, want := range []string{"trove ", "commit: ", "built: ", "ClearML API: " + rpc.MaxVersion.String()} {
		if !strings.Contains(got, want) {
			t.Errorf("version output lacks %q:\n%s", want, got)
		}
	}
	version, commit, buildDate = "v9.9.9", "abc123", "2026-01-02T03:04:05Z"
	defer func() { version, commit, buildDate = "", "", "" }()
	out.Reset()
	printVersion(&out)
	for _, want := range []string{"trove v9.9.9", "commit: abc123", "built: 2026-01-02T03:04:05Z"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("ldflags version lacks %q:\n%s", want, out.String())
		}
	}
}
