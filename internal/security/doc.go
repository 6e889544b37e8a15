// Package security holds Trove's attack suite: tests only, run against the
// real server (internal/testenv) on SQLite and PostgreSQL. The role matrix
// is generated from the endpoint tables the app registers; the cross-site
// and CORS matrices cover both ports and the web address.
package security
