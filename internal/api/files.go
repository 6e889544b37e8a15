package api

// DeleteFiles reads the delete_external_artifacts flag, which defaults to
// true as in the reference server.
func DeleteFiles(flag *bool) bool { return flag == nil || *flag }
