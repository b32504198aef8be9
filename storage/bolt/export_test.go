package bolt

import "time"

// WithTimeout sets how long Open waits for another process to release the
// file lock (one second otherwise): a test of the lock need not wait a
// second.
func WithTimeout(d time.Duration) Option { return func(s *Store) { s.lockTimeout = d } }
