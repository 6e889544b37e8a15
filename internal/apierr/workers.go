package apierr

// WorkerRegistrationFailed is 400/1002.
func WorkerRegistrationFailed(extra string) *Error {
	return New(400, 1002, "Worker registration failed (%s)", extra)
}

// WorkerStatsNotFound is 400/1005.
func WorkerStatsNotFound(extra string) *Error {
	return New(400, 1005, "Worker stats not found (%s)", extra)
}
