package webapp

import "net/http"

// Security headers of the web address's own answers (the UI's files,
// index.html for its routes, configuration.json). The API under /api/ and
// the file server under /files/ answer with their own headers, which this
// never touches.

// OwnUICSP is the Content-Security-Policy of Trove's own UI (internal/ui).
// The UI is one script bundle and plotly.js's "strict" build, both files of
// this origin, so script-src is 'self' with no inline script and no eval
// (the strict plotly build carries its WebGL shaders precompiled).
// style-src needs 'unsafe-inline': plotly.js adds <style> elements and sets
// style attributes on its SVG; styles cannot run script. Images, media and
// fetches are this origin's only (stored URLs of other hosts are never
// loaded by the UI: internal/ui/frontend/src/safeurl.js); data: and blob:
// images are the ones the UI and plotly draw themselves (the "download
// plot as png" button).
const OwnUICSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; media-src 'self'; " +
	"worker-src 'self' blob:; frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; " +
	"frame-ancestors 'self'"

// WebappCSP is the Content-Security-Policy given to a ClearML web app build
// (--webapp-dir): only framing is restricted. The Angular app loads fonts,
// images and links from wherever its configuration points and is not ours
// to audit, so a policy on its scripts could break it.
const WebappCSP = "frame-ancestors 'self'"

// ReferrerPolicy keeps the UI's paths (task and project ids) from other
// sites; same-origin requests carry them as usual.
const ReferrerPolicy = "same-origin"

// securityHeaders sets the headers of the web address's own answers on h.
func securityHeaders(h http.Handler, csp string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", csp)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "SAMEORIGIN")
		hd.Set("Referrer-Policy", ReferrerPolicy)
		h.ServeHTTP(w, r)
	})
}
