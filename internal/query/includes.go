package query

// Includes reports whether results keep the top-level field after
// projection. Handlers that add computed fields after Run (queue entries,
// the workers of a queue) use it to honour only_fields.
func (p *Plan) Includes(field string) bool {
	for _, exc := range p.proj.exclude {
		if len(exc) == 1 && exc[0] == field {
			return false
		}
	}
	if len(p.proj.include) == 0 {
		return true
	}
	for _, inc := range p.proj.include {
		if inc == nil || inc[0] == field {
			return true
		}
	}
	return false
}
