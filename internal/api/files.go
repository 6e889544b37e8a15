package api

import "context"

// DeleteStoredFiles removes the files this server stores under the given
// URLs (artifacts, model weights, debug images of deleted records), after
// the deleting transaction committed. URLs of other storage are left to
// the client; failures are logged, never returned: the records are gone
// either way.
func (d *Deps) DeleteStoredFiles(ctx context.Context, company string, lists ...[]string) {
	if d.Files == nil {
		return
	}
	var urls []string
	for _, l := range lists {
		urls = append(urls, l...)
	}
	if len(urls) == 0 {
		return
	}
	res, err := d.Files.DeleteURLs(ctx, company, urls)
	if err != nil {
		d.Log.Warn("deleting stored files interrupted", "error", err.Error())
		return
	}
	for u, why := range res.Failed {
		d.Log.Warn("stored file not deleted", "url", u, "error", why)
	}
	if len(res.Deleted) > 0 {
		d.Log.Info("stored files deleted", "count", len(res.Deleted))
	}
}

// DeleteFiles reads the delete_external_artifacts flag, which defaults to
// true as in the reference server.
func DeleteFiles(flag *bool) bool { return flag == nil || *flag }
