package mlflow

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/files"
	"github.com/trove-ml/trove/internal/httpx"
	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// ArtifactPrefixes are the paths of MLflow's artifact proxy: runs made
// through the MLflow API have an artifact_uri of
// mlflow-artifacts:/<experiment>/<run>/artifacts, which the client turns
// into calls under these.
var ArtifactPrefixes = []string{"/api/2.0/mlflow-artifacts/", "/ajax-api/2.0/mlflow-artifacts/"}

// ArtifactRoot is the folder of the company's file storage that holds
// the bytes of MLflow artifacts: artifact path p is stored as
// ArtifactRoot + "/" + p.
const ArtifactRoot = "mlflow"

// WithFiles gives the server the file storage the artifact proxy uses.
func (s *Server) WithFiles(fs *files.Service) *Server {
	s.files = fs
	return s
}

// WithFilesURL gives the server the file server's public URL: a file
// uploaded to a run's artifact folder is also a task artifact at that URL.
func (s *Server) WithFilesURL(u string) *Server {
	s.filesURL = u
	return s
}

// MountArtifacts answers the artifact proxy and the downloads streamed
// outside the JSON tables, and hands every other request to next.
func (s *Server) MountArtifacts(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, p := range ArtifactPrefixes {
			if strings.HasPrefix(r.URL.Path, p) {
				s.serveArtifact(w, r, strings.TrimPrefix(r.URL.Path, p))
				return
			}
		}
		switch "/" + strings.TrimLeft(r.URL.Path, "/") {
		case "/get-artifact":
			s.serveRaw(w, r, rpc.Read, s.getRunArtifact)
			return
		case "/model-versions/get-artifact":
			s.serveRaw(w, r, rpc.Read, s.getVersionArtifact)
			return
		}
		if r.URL.Path == OTLPPath {
			s.serveRaw(w, r, rpc.Write, s.exportOTLP)
			return
		}
		for _, p := range Prefixes {
			rest, ok := strings.CutPrefix(r.URL.Path, p)
			if !ok {
				continue
			}
			switch strings.TrimSuffix(rest, "/") {
			case "get-artifact":
				s.serveRaw(w, r, rpc.Read, s.getRunArtifact)
				return
			case "model-versions/get-artifact":
				s.serveRaw(w, r, rpc.Read, s.getVersionArtifact)
				return
			case "upload-artifact":
				s.serveRaw(w, r, rpc.Write, s.uploadRunArtifact)
				return
			case "get-trace-artifact":
				s.serveRaw(w, r, rpc.Read, s.getTraceArtifact)
				return
			}
			if sub, ok := strings.CutPrefix(rest, "logged-models/"); ok && s.routeLoggedModelFile(w, r, sub) {
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// artifactKey is the stored file of artifact path p (already clean).
func artifactKey(company, p string) files.Key {
	return files.Key{Company: company, Path: ArtifactRoot + "/" + p}
}

// cleanArtifactPath checks an artifact path: relative, no "..", no NUL,
// bounded (the file server's rules).
func cleanArtifactPath(p string) (string, error) {
	// MLflow's message, exactly: an artifact path is relative, without
	// '..' and without backslashes
	if strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return "", apierr.MLflowInvalidParameter("Invalid path")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "", apierr.MLflowInvalidParameter("Invalid path")
		}
	}
	clean, err := files.CleanPath(p)
	if err != nil {
		return "", apierr.MLflowInvalidParameter("Invalid path '%s': %s", p, strings.TrimPrefix(err.Error(), files.ErrBadPath.Error()+" "))
	}
	return clean, nil
}

// fileError turns a storage error into MLflow's envelope.
func fileError(err error, p string) error {
	if ae := apierr.As(err); ae != nil {
		return err
	}
	switch code := files.StatusOf(err); code {
	case http.StatusNotFound:
		return apierr.MLflowNotFound("No artifact at path '%s'", p)
	case http.StatusBadRequest:
		return apierr.MLflowInvalidParameter("%s", err.Error())
	case http.StatusRequestEntityTooLarge:
		e := apierr.MLflowInvalidParameter("%s", err.Error())
		e.Code = code
		return e
	case http.StatusForbidden:
		e := apierr.MLflowBadRequest("%s", err.Error())
		e.Code = code
		return e
	case http.StatusServiceUnavailable:
		e := apierr.MLflowBadRequest("The file storage is unavailable: %s; retry shortly", err.Error())
		e.Code, e.RetryAfter = code, 2
		return e
	}
	return err
}

// serveArtifact answers one call of the artifact proxy: rest is the path
// after the prefix ("artifacts/<path>", "artifacts" to list).
func (s *Server) serveArtifact(w http.ResponseWriter, r *http.Request, rest string) {
	if s.preflight(w, r, "GET, PUT, DELETE, OPTIONS") {
		return
	}
	defer s.recoverCall(w, "mlflow-artifacts", rest)
	s.answerRaw(w, rest, s.artifactCall(w, r, rest))
}

// serveRaw answers a call whose answer is not JSON (a file) or whose
// body is not JSON (an upload), after the access checks of the API.
func (s *Server) serveRaw(w http.ResponseWriter, r *http.Request, access rpc.Access, fn func(w http.ResponseWriter, r *http.Request, id *auth.Identity) error) {
	if s.preflight(w, r, "GET, POST, OPTIONS") {
		return
	}
	defer s.recoverCall(w, "mlflow", r.URL.Path)
	s.answerRaw(w, r.URL.Path, func() error {
		if s.files == nil {
			return apierr.MLflowEndpointNotFound(r.Method, r.URL.Path)
		}
		id, err := s.checkAccess(r, access)
		if err != nil {
			return err
		}
		return fn(w, r, id)
	}())
}

// checkAccess authenticates r and checks its role and origin.
func (s *Server) checkAccess(r *http.Request, access rpc.Access) (*auth.Identity, error) {
	id, err := s.auth.Authenticate(r.Context(), r)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(access.Roles, id.Role) {
		return nil, apierr.RoleNotAllowed(id.Role, access.Roles)
	}
	if access.Changes && httpx.CookieOnly(r) {
		if why := s.origins.CheckCookieFileChange(r); why != "" {
			return nil, apierr.CrossSiteRefused(why)
		}
	}
	return id, nil
}

// answerRaw writes err (if any) in MLflow's envelope.
func (s *Server) answerRaw(w http.ResponseWriter, what string, err error) {
	if err != nil {
		ae := apierr.As(err)
		if ae == nil {
			if f := store.FaultOf(err); f != "" {
				ae = apierr.StoreUnavailable(string(f), err)
			} else {
				s.log.Error("mlflow artifact call failed", "path", what, "error", err.Error())
				ae = apierr.Internal(err)
			}
		}
		writeError(w, ae)
	}
}

func (s *Server) artifactCall(w http.ResponseWriter, r *http.Request, rest string) error {
	if s.files == nil {
		return apierr.MLflowEndpointNotFound(r.Method, r.URL.Path)
	}
	var access rpc.Access
	var handle func(ctx context.Context, id *auth.Identity, p string) error
	switch {
	case rest == "artifacts" || rest == "artifacts/":
		if r.Method != http.MethodGet {
			return methodRefused(r, "GET")
		}
		access = rpc.Read
		handle = func(ctx context.Context, id *auth.Identity, _ string) error {
			return s.listArtifacts(ctx, w, id, r.URL.Query().Get("path"))
		}
	case strings.HasPrefix(rest, "artifacts/"):
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			access = rpc.Read
			handle = func(ctx context.Context, id *auth.Identity, p string) error { return s.downloadArtifact(w, r, id, p) }
		case http.MethodPut:
			access = rpc.Write
			handle = func(ctx context.Context, id *auth.Identity, p string) error {
				return s.uploadArtifact(ctx, w, r, id, p)
			}
		case http.MethodDelete:
			access = rpc.Write
			handle = func(ctx context.Context, id *auth.Identity, p string) error { return s.deleteArtifacts(ctx, w, id, p) }
		default:
			return methodRefused(r, "GET, PUT, DELETE")
		}
	default:
		// multipart uploads (mpu/...) are not offered: the client uses
		// them only when asked to, and falls back to a PUT
		return apierr.MLflowEndpointNotFound(r.Method, r.URL.Path)
	}
	ctx := r.Context()
	id, err := s.checkAccess(r, access)
	if err != nil {
		return err
	}
	p := ""
	if rest != "artifacts" && rest != "artifacts/" {
		if p, err = cleanArtifactPath(strings.TrimPrefix(rest, "artifacts/")); err != nil {
			return err
		}
	}
	return handle(ctx, id, p)
}

func methodRefused(r *http.Request, allowed string) error {
	e := apierr.MLflowBadRequest("Method %s is not allowed for %s (allowed: %s)", r.Method, r.URL.Path, allowed)
	e.Code = 405
	return e
}

// uploadArtifact stores a PUT's body under artifact path p.
func (s *Server) uploadArtifact(ctx context.Context, w http.ResponseWriter, r *http.Request, id *auth.Identity, p string) error {
	if enc := r.Header.Get("Content-Encoding"); enc != "" && enc != "identity" {
		return apierr.MLflowInvalidParameter("Content-Encoding '%s' is not supported for an artifact upload", enc)
	}
	if limit := s.files.MaxUpload(); limit > 0 {
		if r.ContentLength > limit {
			return fileError(s.files.TooLarge(), p)
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit+1)
	}
	n, err := s.files.Save(ctx, artifactKey(id.CompanyID, p), r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			err = s.files.TooLarge()
		}
		return fileError(err, p)
	}
	if err := s.env.DB.PutArtifact(ctx, id.CompanyID, store.ArtifactFile{Path: p, Size: n, Modified: s.env.Time().Millis()}); err != nil {
		return err
	}
	if s.filesURL != "" {
		// the run's task lists the file too (Trove's UI, the clearml SDK)
		u := mlflow.FileURL(s.filesURL, artifactKey(id.CompanyID, p).Path)
		if err := mlflow.NoteRunArtifact(ctx, s.env, id.CompanyID, id.UserID, p, u, n); err != nil {
			return err
		}
	}
	writeJSON(w, empty{})
	return nil
}

// downloadArtifact sends the file at artifact path p as an attachment.
func (s *Server) downloadArtifact(w http.ResponseWriter, r *http.Request, id *auth.Identity, p string) error {
	if err := s.files.ServeAttachment(w, r, artifactKey(id.CompanyID, p)); err != nil {
		return fileError(err, p)
	}
	return nil
}

// artifactFileJSON is one entry of a list answer.
type artifactFileJSON struct {
	Path     string `json:"path"`
	IsDir    bool   `json:"is_dir"`
	FileSize *int64 `json:"file_size,omitempty"`
}

// listEntries are the direct children of folder dir among files (paths
// below dir), folders first named once.
func listEntries(dir string, list []store.ArtifactFile) []artifactFileJSON {
	var out []artifactFileJSON
	seen := map[string]bool{}
	for _, f := range list {
		rel := f.Path
		if dir != "" {
			rel = strings.TrimPrefix(f.Path, dir+"/")
		}
		name, below, isDir := strings.Cut(rel, "/")
		if isDir && below != "" {
			if !seen[name] {
				seen[name] = true
				out = append(out, artifactFileJSON{Path: name, IsDir: true})
			}
			continue
		}
		size := f.Size
		out = append(out, artifactFileJSON{Path: name, FileSize: &size})
	}
	return out
}

// listArtifacts answers the files and folders directly in folder dir.
func (s *Server) listArtifacts(ctx context.Context, w http.ResponseWriter, id *auth.Identity, dir string) error {
	if dir != "" {
		var err error
		if dir, err = cleanArtifactPath(dir); err != nil {
			return err
		}
	}
	list, err := s.env.DB.ListArtifacts(ctx, id.CompanyID, dir, mlflow.MaxArtifactList)
	if err != nil {
		return err
	}
	out := struct {
		Files []artifactFileJSON `json:"files,omitempty"`
	}{Files: listEntries(dir, list)}
	writeJSON(w, out)
	return nil
}

// deleteArtifacts removes the file at p, or every file under folder p.
func (s *Server) deleteArtifacts(ctx context.Context, w http.ResponseWriter, id *auth.Identity, p string) error {
	list, err := s.env.DB.ListArtifacts(ctx, id.CompanyID, p, mlflow.MaxArtifactList)
	if err != nil {
		return err
	}
	if f, err := s.env.DB.GetArtifact(ctx, id.CompanyID, p); err == nil {
		list = append(list, *f)
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if len(list) == 0 {
		return apierr.MLflowNotFound("No artifact at path '%s'", p)
	}
	gone := make([]string, 0, len(list))
	for _, f := range list {
		if err := s.files.Remove(ctx, artifactKey(id.CompanyID, f.Path)); err != nil && files.StatusOf(err) != http.StatusNotFound {
			return fileError(err, f.Path)
		}
		if err := s.env.DB.DeleteArtifact(ctx, id.CompanyID, f.Path); err != nil {
			return err
		}
		gone = append(gone, f.Path)
	}
	if err := mlflow.DropRunArtifacts(ctx, s.env, id.CompanyID, id.UserID, gone); err != nil {
		return err
	}
	writeJSON(w, empty{})
	return nil
}

func writeJSON(w http.ResponseWriter, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		writeError(w, apierr.Internal(err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// artifactDir is the artifact path an mlflow-artifacts: URI names ("" when
// the URI is of another kind).
func artifactDir(uri string) string {
	rest, ok := strings.CutPrefix(uri, "mlflow-artifacts:")
	if !ok {
		return ""
	}
	// mlflow-artifacts://host:port/path or mlflow-artifacts:/path
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		if i := strings.Index(rest, "/"); i >= 0 {
			rest = rest[i:]
		} else {
			rest = ""
		}
	}
	return path.Clean("/" + rest)[1:]
}

// runArtifactPath is the artifact path of file p of run id: the run's
// artifact folder (its mlflow-artifacts: URI) and p.
func (s *Server) runArtifactPath(ctx context.Context, company, id, p string) (string, error) {
	if id == "" {
		return "", apierr.MLflowInvalidParameter("Request must specify run_uuid.")
	}
	if p == "" {
		return "", apierr.MLflowInvalidParameter("Request must specify path.")
	}
	clean, err := cleanArtifactPath(p)
	if err != nil {
		return "", err
	}
	run, err := mlflow.GetRun(ctx, s.env, company, id)
	if err != nil {
		return "", err
	}
	dir := artifactDir(run.ArtifactURI)
	if dir == "" {
		return "", apierr.MLflowInvalidParameter("The artifacts of run '%s' are not stored by this server (%s)", id, run.ArtifactURI)
	}
	return dir + "/" + clean, nil
}

// runParam reads run_id or run_uuid of the query.
func runParam(r *http.Request) string {
	if v := r.URL.Query().Get("run_id"); v != "" {
		return v
	}
	return r.URL.Query().Get("run_uuid")
}

// getRunArtifact answers GET get-artifact?run_uuid=&path=: a file of a
// run, as an attachment.
func (s *Server) getRunArtifact(w http.ResponseWriter, r *http.Request, id *auth.Identity) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return methodRefused(r, "GET")
	}
	p, err := s.runArtifactPath(r.Context(), id.CompanyID, runParam(r), r.URL.Query().Get("path"))
	if err != nil {
		return err
	}
	return s.downloadArtifact(w, r, id, p)
}

// uploadRunArtifact answers POST upload-artifact?run_uuid=&path=: the
// body is the file.
func (s *Server) uploadRunArtifact(w http.ResponseWriter, r *http.Request, id *auth.Identity) error {
	if r.Method != http.MethodPost {
		return methodRefused(r, "POST")
	}
	p, err := s.runArtifactPath(r.Context(), id.CompanyID, runParam(r), r.URL.Query().Get("path"))
	if err != nil {
		return err
	}
	if r.ContentLength == 0 {
		return apierr.MLflowInvalidParameter("Request must specify data.")
	}
	return s.uploadArtifact(r.Context(), w, r, id, p)
}

// getVersionArtifact answers GET model-versions/get-artifact?name=&
// version=&path=: a file under a version's source.
func (s *Server) getVersionArtifact(w http.ResponseWriter, r *http.Request, id *auth.Identity) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return methodRefused(r, "GET")
	}
	q := r.URL.Query()
	p, err := cleanArtifactPath(q.Get("path"))
	if err != nil {
		return err
	}
	version, err := mlflow.ParseVersion(q.Get("version"))
	if err != nil {
		return err
	}
	src, err := mlflow.DownloadURI(r.Context(), s.env, id.CompanyID, q.Get("name"), version)
	if err != nil {
		return err
	}
	if m, ok := strings.CutPrefix(src, "models:/"); ok {
		lm, err := mlflow.GetLoggedModel(r.Context(), s.env, id.CompanyID, strings.Trim(m, "/"))
		if err != nil {
			return err
		}
		src = lm.ArtifactURI
	}
	dir := artifactDir(src)
	if dir == "" {
		return apierr.MLflowInvalidParameter("The files of model version %s/%d are not stored by this server (%s)", q.Get("name"), version, src)
	}
	return s.downloadArtifact(w, r, id, dir+"/"+p)
}

func (s *Server) artifactTable() []endpoint {
	return []endpoint{
		{"artifacts/list", get, rpc.Read, s.listRunArtifacts},
	}
}

// listRunArtifacts answers artifacts/list?run_id=&path=: the files and
// folders directly in a folder of a run's artifacts, paths from the
// run's artifact root.
func (s *Server) listRunArtifacts(ctx context.Context, c *call) (any, error) {
	id, err := runID(c)
	if err != nil {
		return nil, err
	}
	sub, err := c.str("path")
	if err != nil {
		return nil, err
	}
	if sub != "" {
		if sub, err = cleanArtifactPath(sub); err != nil {
			return nil, err
		}
	}
	run, err := mlflow.GetRun(ctx, s.env, c.id.CompanyID, id)
	if err != nil {
		return nil, err
	}
	out := struct {
		RootURI string             `json:"root_uri"`
		Files   []artifactFileJSON `json:"files,omitempty"`
	}{RootURI: run.ArtifactURI}
	dir := artifactDir(run.ArtifactURI)
	if dir == "" {
		return out, nil
	}
	if sub != "" {
		dir += "/" + sub
	}
	list, err := s.env.DB.ListArtifacts(ctx, c.id.CompanyID, dir, mlflow.MaxArtifactList)
	if err != nil {
		return nil, err
	}
	for _, f := range listEntries(dir, list) {
		if sub != "" {
			f.Path = sub + "/" + f.Path
		}
		out.Files = append(out.Files, f)
	}
	return out, nil
}
