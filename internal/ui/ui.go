// Package ui holds Trove's own web UI: its sources in frontend/ (preact,
// uPlot and plotly.js, built with esbuild by frontend/build.mjs) and the
// built files in dist/, embedded in the binary so `trove serve` shows the
// UI on its web address with no node on the machine. internal/webapp
// serves these files beside the API and the file server on one origin.
//
// After changing frontend/, run scripts/ui-build and commit dist/; CI
// rebuilds and fails when dist/ does not match the sources.
package ui

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Assets is the built UI: index.html at its root.
func Assets() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed directive guarantees dist exists
	}
	return sub
}
