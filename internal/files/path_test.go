package files

import (
	"errors"
	"strings"
	"testing"
)

func TestCleanPath(t *testing.T) {
	cases := []struct {
		in, want string
		bad      string // part of the error message when refused
	}{
		{in: "/proj/task name.123/artifacts/a/a.json", want: "proj/task name.123/artifacts/a/a.json"},
		{in: "proj/x.bin", want: "proj/x.bin"},
		{in: "/ünïcode/ファイル.txt", want: "ünïcode/ファイル.txt"},
		{in: "/a//b/./c", want: "a/b/c"},
		{in: "/a/b/", want: "a/b"},
		{in: "/a/..b/c..", want: "a/..b/c.."},
		{in: `/a\b`, want: `a\b`},
		{in: "/%2E%2E/x", want: "%2E%2E/x"}, // literal: already decoded once
		{in: "", bad: "empty"},
		{in: "/", bad: "empty"},
		{in: "///", bad: "empty"},
		{in: "/./", bad: "names no file"},
		{in: "/../etc/passwd", bad: `".."`},
		{in: "/a/../b", bad: `".."`},
		{in: "/a/b/..", bad: `".."`},
		{in: "//etc/passwd", bad: "absolute"},
		{in: `/\server\share`, bad: "absolute"},
		{in: "/C:/Windows/x", bad: "absolute"},
		{in: `c:\x`, bad: "absolute"},
		{in: "/a\x00b", bad: "NUL"},
		{in: "/a\xffb", bad: "UTF-8"},
		{in: "/" + strings.Repeat("s", 256), bad: "segment"},
		{in: "/" + strings.Repeat("abcdefghi/", 103), bad: "longer than 1024"},
	}
	for _, c := range cases {
		got, err := CleanPath(c.in)
		if c.bad != "" {
			if !errors.Is(err, ErrBadPath) || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("CleanPath(%q) = %q, %v; want ErrBadPath mentioning %q", c.in, got, err, c.bad)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("CleanPath(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestCompanyDir(t *testing.T) {
	cases := map[string]string{
		"d1bd92a3b039400cbafc60a7a5b1e52b": "d1bd92a3b039400cbafc60a7a5b1e52b",
		"other-co_2":                       "other-co_2",
		"..":                               "~2e2e",
		"a/b":                              "~612f62",
		"":                                 "~",
		".incoming":                        "~2e696e636f6d696e67",
	}
	for in, want := range cases {
		if got := companyDir(in); got != want {
			t.Errorf("companyDir(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitURL(t *testing.T) {
	cases := []struct {
		in                 string
		scheme, host, rest string
		ok                 bool
	}{
		{"http://127.0.0.1:8081/a/b", "http", "127.0.0.1:8081", "/a/b", true},
		{"HTTP://Files.Example.COM/a b", "http", "files.example.com:80", "/a b", true},
		{"https://user:pw@h/x?y#z", "https", "h:443", "/x?y#z", true},
		{"http://[::1]:8081/x", "http", "[::1]:8081", "/x", true},
		{"http://[::1]/x", "http", "[::1]:80", "/x", true},
		{"s3://bucket/x", "", "", "", false},
		{"file:///tmp/x", "", "", "", false},
		{"/local/path", "", "", "", false},
		{"http:///x", "", "", "", false},
	}
	for _, c := range cases {
		s, h, r, ok := splitURL(c.in)
		if s != c.scheme || h != c.host || r != c.rest || ok != c.ok {
			t.Errorf("splitURL(%q) = %q %q %q %v", c.in, s, h, r, ok)
		}
	}
}
