package rpc

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is an API version, compared as an integer pair (2.5 < 2.31).
type Version struct{ Major, Minor int }

// MaxVersion is the newest API version Trove implements; a path without a
// version runs as this one.
var MaxVersion = Version{2, 34}

// ParseVersion parses "2.31" or "22". Leading zeros are refused as the
// reference refuses them.
func ParseVersion(s string) (Version, error) {
	major, minor, hasDot := strings.Cut(s, ".")
	if major == "" || (hasDot && minor == "") {
		return Version{}, fmt.Errorf("bad version %q", s)
	}
	if (len(major) > 1 && major[0] == '0') || (len(minor) > 1 && minor[0] == '0') {
		return Version{}, fmt.Errorf("bad version %q", s)
	}
	ma, err := strconv.Atoi(major)
	if err != nil {
		return Version{}, err
	}
	mi := 0
	if hasDot {
		if mi, err = strconv.Atoi(minor); err != nil {
			return Version{}, err
		}
	}
	return Version{ma, mi}, nil
}

// MustVersion parses a version known at compile time.
func MustVersion(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

// Less compares as integer pairs.
func (v Version) Less(o Version) bool {
	if v.Major != o.Major {
		return v.Major < o.Major
	}
	return v.Minor < o.Minor
}

// AtLeast reports v >= o.
func (v Version) AtLeast(o Version) bool { return !v.Less(o) }

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// wire renders a version for meta.endpoint: a string, except below 2.1
// where the reference emits a JSON number.
func (v Version) wire() any {
	if v.Less(Version{2, 1}) {
		f, _ := strconv.ParseFloat(v.String(), 64)
		return f
	}
	return v.String()
}
