package files

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits on stored paths, so that a path that the filesystem would refuse
// gets a clear 400 rather than an I/O error.
const (
	maxPathBytes    = 1024
	maxSegmentBytes = 255
)

// CleanPath turns a client's storage path (an upload's field name or a
// download URL's decoded path) into the relative path Trove stores.
//
// The one leading "/" that the ClearML SDK always sends is dropped; empty
// and "." segments are removed. A path that is empty, still absolute
// ("//x", "C:\x"), climbs with "..", contains NUL or invalid UTF-8, or is
// too long is refused with an error wrapping ErrBadPath.
func CleanPath(p string) (string, error) {
	raw := p
	p = strings.TrimPrefix(p, "/")
	switch {
	case strings.TrimLeft(p, "/") == "":
		return "", badPath(raw, "the path is empty")
	case strings.HasPrefix(p, "/"), strings.HasPrefix(p, `\`), isDrivePath(p):
		return "", badPath(raw, "absolute paths are not allowed")
	case strings.ContainsRune(p, 0):
		return "", badPath(raw, "the path contains a NUL byte")
	case !utf8.ValidString(p):
		return "", badPath(raw, "the path is not valid UTF-8")
	}
	segs := strings.Split(p, "/")
	out := segs[:0]
	for _, s := range segs {
		switch s {
		case "", ".":
			continue
		case "..":
			return "", badPath(raw, `".." is not allowed in a path`)
		}
		if len(s) > maxSegmentBytes {
			return "", badPath(raw, fmt.Sprintf("a path segment is longer than %d bytes", maxSegmentBytes))
		}
		out = append(out, s)
	}
	clean := strings.Join(out, "/")
	if clean == "" {
		return "", badPath(raw, "the path names no file")
	}
	if len(clean) > maxPathBytes {
		return "", badPath(raw, fmt.Sprintf("the path is longer than %d bytes", maxPathBytes))
	}
	return clean, nil
}

// isDrivePath reports a Windows drive path such as "C:\x" or "c:/x".
func isDrivePath(p string) bool {
	if len(p) < 3 || p[1] != ':' || (p[2] != '/' && p[2] != '\\') {
		return false
	}
	c := p[0] | 0x20
	return c >= 'a' && c <= 'z'
}

func badPath(p, why string) error {
	return fmt.Errorf("%w %q: %s", ErrBadPath, p, why)
}
