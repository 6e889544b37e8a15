package projects

import "sort"

// sortedPage orders the distinct values of seen by less and returns one
// page of them, their total and how many come after the page.
func sortedPage[T comparable](seen map[T]bool, less func(a, b T) bool, page Page) (items []T, total, remaining int) {
	all := make([]T, 0, len(seen))
	for k := range seen {
		all = append(all, k)
	}
	sort.Slice(all, func(i, j int) bool { return less(all[i], all[j]) })
	_, to := page.bounds(len(all))
	return pageOf(all, page), len(all), len(all) - to
}
