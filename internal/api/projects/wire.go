package projects

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// project is a project as the API answers it. It is its own type so that
// the stored row can change without changing answers: toWire is the one
// place a stored project becomes an answer.
type project struct {
	ID                       string     `json:"id"`
	Company                  string     `json:"company"`
	User                     string     `json:"user"`
	Name                     string     `json:"name"`
	Basename                 string     `json:"basename"`
	Description              string     `json:"description"`
	Created                  jsonx.Time `json:"created"`
	Tags                     []string   `json:"tags"`
	SystemTags               []string   `json:"system_tags"`
	LastUpdate               jsonx.Time `json:"last_update"`
	Featured                 int        `json:"featured"`
	DefaultOutputDestination *string    `json:"default_output_destination,omitempty"`
	Parent                   string     `json:"parent,omitempty"`
	Path                     []string   `json:"path"`
	CompanyOrigin            string     `json:"company_origin,omitempty"`
	LogoURL                  string     `json:"logo_url,omitempty"`
}

// toWire converts a stored project into its answer.
func toWire(p *store.Project) *project {
	return &project{ID: p.ID, Company: p.Company, User: p.User, Name: p.Name, Basename: p.Basename,
		Description: p.Description, Created: p.Created, Tags: p.Tags, SystemTags: p.SystemTags,
		LastUpdate: p.LastUpdate, Featured: p.Featured, DefaultOutputDestination: p.DefaultOutputDestination,
		Parent: p.Parent, Path: p.Path, CompanyOrigin: p.CompanyOrigin, LogoURL: p.LogoURL}
}

// wireItems converts the stored documents of a projects list.
var wireItems = api.WireItems(toWire)
