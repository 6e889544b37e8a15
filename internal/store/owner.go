package store

// Owned is a record that belongs to a company and can be made public: its
// company becomes "" and CompanyOrigin remembers whose it was.
type Owned interface {
	Record
	// Owner returns the company and the origin company.
	Owner() (company, origin string)
	// SetOwner sets both.
	SetOwner(company, origin string)
}

// Owner implements Owned.
func (t *Task) Owner() (string, string) { return t.Company, t.CompanyOrigin }

// SetOwner implements Owned.
func (t *Task) SetOwner(company, origin string) { t.Company, t.CompanyOrigin = company, origin }

// Owner implements Owned.
func (m *Model) Owner() (string, string) { return m.Company, m.CompanyOrigin }

// SetOwner implements Owned.
func (m *Model) SetOwner(company, origin string) { m.Company, m.CompanyOrigin = company, origin }

// Owner implements Owned.
func (p *Project) Owner() (string, string) { return p.Company, p.CompanyOrigin }

// SetOwner implements Owned.
func (p *Project) SetOwner(company, origin string) { p.Company, p.CompanyOrigin = company, origin }
