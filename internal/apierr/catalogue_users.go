package apierr

// The catalogue's errors of users, credentials and impersonation.

// InvalidID is 400/10: a referenced record without an error of its own
// (a company, a prepared download) does not exist or is out of the
// caller's reach.
func InvalidID(msg string, kv ...any) *Error {
	return New(400, 10, "Invalid object id (%s)", msg).With(kv...)
}

// ImpersonationError is 400/6.
func ImpersonationError(msg string, kv ...any) *Error {
	return New(400, 6, "Impersonation error (%s)", msg).With(kv...)
}

// InvalidAccessKey is 400/75.
func InvalidAccessKey(key string) *Error {
	return New(400, 75, "Access key not found (invalid user or invalid access key)").With("access_key", key)
}

// UserIDExists is 400/302.
func UserIDExists(id string) *Error {
	return (&Error{Code: 400, Subcode: 302, Msg: "User id already exists"}).With("id", id)
}

// InvalidPreferencesUpdate is 400/305.
func InvalidPreferencesUpdate(key string) *Error {
	return (&Error{Code: 400, Subcode: 305, Msg: "Malformed key and/or value"}).With("key", key)
}
