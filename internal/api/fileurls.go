package api

import "github.com/trove-ml/trove/internal/domain"

// FileURLs is the urls member of delete and reset answers.
type FileURLs struct {
	ModelURLs    []string `json:"model_urls"`
	EventURLs    []string `json:"event_urls"`
	ArtifactURLs []string `json:"artifact_urls"`
}

// URLs converts the file URLs a cascade gathered (nil stays nil).
func URLs(u *domain.FileURLs) *FileURLs {
	if u == nil {
		return nil
	}
	return &FileURLs{ModelURLs: u.ModelURLs, EventURLs: u.EventURLs, ArtifactURLs: u.ArtifactURLs}
}
