package files

import (
	"mime"
	"path"
	"strings"
)

// inlineTypes are the file types a browser may show in place: what the
// UI displays as debug samples and plots (raster images, audio, video)
// and plain text and JSON, which no browser runs as a page (with
// nosniff). They are looked up by the lower-cased extension, never taken
// from the uploader or the system's MIME tables, so a host's tables
// cannot widen the list. Every other file, HTML, SVG, XML, XHTML, PDF,
// JavaScript, archives, model weights and unknown extensions included,
// is sent as an attachment.
var inlineTypes = map[string]string{
	// raster images (the SDK's debug images and plot images)
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".jpe":  "image/jpeg",
	".gif":  "image/gif",
	".webp": "image/webp",
	".bmp":  "image/bmp",
	".avif": "image/avif",
	".tif":  "image/tiff",
	".tiff": "image/tiff",
	".ico":  "image/x-icon",
	// audio and video debug samples
	".mp3":  "audio/mpeg",
	".wav":  "audio/wav",
	".ogg":  "audio/ogg",
	".oga":  "audio/ogg",
	".opus": "audio/ogg",
	".flac": "audio/flac",
	".m4a":  "audio/mp4",
	".aac":  "audio/aac",
	".weba": "audio/webm",
	".mp4":  "video/mp4",
	".m4v":  "video/mp4",
	".webm": "video/webm",
	".ogv":  "video/ogg",
	".mov":  "video/quicktime",
	// text shown as text
	".txt":  "text/plain; charset=utf-8",
	".log":  "text/plain; charset=utf-8",
	".json": "application/json",
}

// fileHeaders are the type headers of a stored file's answer.
type fileHeaders struct {
	ContentType string
	// Disposition is "" for a file shown in place, else "attachment"
	// with the file's name.
	Disposition string
}

// headersFor chooses how a stored file is sent, from its path alone
// (stored files keep no metadata): an allow-listed type is shown in place
// (unless download asks for an attachment); anything else goes as an
// attachment under its own type, or application/octet-stream when the
// extension says nothing.
func headersFor(p string, download bool) fileHeaders {
	ext := strings.ToLower(path.Ext(p))
	if ct, ok := inlineTypes[ext]; ok {
		h := fileHeaders{ContentType: ct}
		if download {
			h.Disposition = attachment(p)
		}
		return h
	}
	ct := mime.TypeByExtension(ext)
	if ct == "" {
		ct = "application/octet-stream"
	}
	return fileHeaders{ContentType: ct, Disposition: attachment(p)}
}

// attachment is a Content-Disposition naming the file (non-ASCII names
// in the RFC 2231 form); a name that cannot be written goes without it.
func attachment(p string) string {
	if v := mime.FormatMediaType("attachment", map[string]string{"filename": path.Base(p)}); v != "" {
		return v
	}
	return "attachment"
}

// sandboxPolicy is the Content-Security-Policy of every files answer: a
// file opened as a page runs in an opaque origin without scripts, forms
// or plugins, so even a type that a browser renders cannot act on the
// origin it was served from (the web address serves files under /files/).
// Images, audio and video embedded by the UI are unaffected.
const sandboxPolicy = "sandbox"
