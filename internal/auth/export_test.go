package auth

import (
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// Comparisons records the bcrypt comparisons a Service makes.
type Comparisons struct {
	mu    sync.Mutex
	costs []int
}

// Costs returns the bcrypt cost of each hash compared so far, and
// forgets them.
func (c *Comparisons) Costs() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.costs
	c.costs = nil
	return out
}

// RecordComparisons makes s record its bcrypt comparisons.
func RecordComparisons(s *Service) *Comparisons {
	c := &Comparisons{}
	inner := s.compare
	s.compare = func(hash, secret []byte) error {
		cost, err := bcrypt.Cost(hash)
		if err != nil {
			cost = -1
		}
		c.mu.Lock()
		c.costs = append(c.costs, cost)
		c.mu.Unlock()
		return inner(hash, secret)
	}
	return c
}
