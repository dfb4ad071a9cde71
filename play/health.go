package play

import (
	"context"
	"fmt"
)

// Ping reports whether the database answers, for health checks: nil when
// it does, else an error that Unavailable recognises.
func (s *Service) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("ping the database: %w", err)
	}
	return nil
}
