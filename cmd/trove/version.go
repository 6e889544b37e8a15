package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/rpc"
)

// Set with -ldflags "-X main.version=... -X main.commit=... -X main.buildDate=..."
// by release builds; otherwise read from the module and VCS stamps that
// go build records.
var version, commit, buildDate string

// buildInfo is what `trove version` prints.
type buildInfo struct {
	Version, Commit, Date string
	Modified              bool
}

func readBuildInfo() buildInfo {
	b := buildInfo{Version: version, Commit: commit, Date: buildDate}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			b.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				if b.Date == "" {
					b.Date = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	return b
}

func printVersion(w io.Writer) {
	b := readBuildInfo()
	commit := b.Commit
	if commit == "" {
		commit = "unknown (built without VCS stamps, e.g. go run)"
	} else if b.Modified {
		commit += " (with uncommitted changes)"
	}
	date := b.Date
	if date == "" {
		date = "unknown"
	}
	fmt.Fprintf(w, "trove %s\ncommit: %s\nbuilt: %s\nClearML API: %s (server version %s)\n",
		b.Version, commit, date, rpc.MaxVersion, auth.ServerVersion)
}
