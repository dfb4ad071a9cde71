package mailstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// TalkTold returns the version of game's talk stream up to which user's
// mail has told its table talk (0: nothing yet).
func (s *Store) TalkTold(ctx context.Context, user, game string) (int, error) {
	var told int
	err := s.pool.QueryRow(ctx, `select told from talk_told where user_id = $1 and game_id = $2`, user, game).Scan(&told)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the talk told to %s in game %s: %w", user, game, err)
	}
	return told, nil
}

// SetTalkTold notes that user's mail told game's table talk up to version
// told of its stream; a mark never goes back.
func (s *Store) SetTalkTold(ctx context.Context, user, game string, told int) error {
	_, err := s.pool.Exec(ctx, `insert into talk_told (user_id, game_id, told) values ($1, $2, $3)
		on conflict (user_id, game_id) do update set told = greatest(talk_told.told, excluded.told), updated_at = now()`, user, game, told)
	if err != nil {
		return fmt.Errorf("note the talk told to %s in game %s: %w", user, game, err)
	}
	return nil
}
