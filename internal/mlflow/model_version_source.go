package mlflow

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
)

var uriScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// CheckSource checks a model version's source: a URI (runs:/, models:/,
// mlflow-artifacts:, s3://, ...), never a local path of the server, and
// whose path, percent-decoded, climbs with no ".." and holds no NUL.
func CheckSource(src string) error {
	scheme := strings.ToLower(strings.TrimSuffix(uriScheme.FindString(src), ":"))
	if scheme == "" || scheme == "file" || len(scheme) == 1 {
		return apierr.MLflowInvalidParameter("Invalid model version source: '%s'. A local path (or file: URI) cannot be a model version source on this server; use the run's or the logged model's URI (runs:/, models:/, mlflow-artifacts:/).", src)
	}
	decoded := src
	for i := 0; i < 5; i++ {
		next, err := url.PathUnescape(decoded)
		if err != nil || next == decoded {
			break
		}
		decoded = next
	}
	bad := strings.ContainsRune(decoded, 0)
	for _, seg := range strings.FieldsFunc(decoded, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			bad = true
		}
	}
	if bad {
		return apierr.MLflowInvalidParameter("Invalid model version source: '%s'. If supplying a source as an http, https, local file path, ftp, objectstore, or mlflow-artifacts uri, an absolute path must be provided without relative path references present. Please provide an absolute path.", src)
	}
	return nil
}
