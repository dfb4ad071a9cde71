package play

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play/archive"
)

// A receipt is the head of a game's log after a command, sealed under a key
// derived from the game's seed (archive.ReceiptHead): the command side
// serves it here; anyone holding the record checks it there.

// receiptHead is the receipt of the event whose chained hash is hash, for
// a command on t: under the seed of the game being created or the one
// loaded with the table. A game without a seed (none is stored before the
// seed was kept) gets no receipt rather than its raw hash.
func (t *Table) receiptHead(c *cmdCtx, hash []byte) string {
	seed := t.seed
	if c.newSeed != nil {
		seed = c.newSeed
	}
	if seed == nil {
		return ""
	}
	return archive.ReceiptHead(*seed, t.ID, hash)
}

// sealReplayed turns the raw head hash kept under an idempotency key into
// the receipt the first answer carried: sealed under the game's key, from
// the table's seed, the one the command's batch loaded, or the store.
func (s *Service) sealReplayed(ctx context.Context, tx pgx.Tx, t *Table, secret storedSeed, out Outcome) (Outcome, error) {
	if out.Head == "" {
		return out, nil
	}
	raw, err := hex.DecodeString(out.Head)
	if err != nil {
		return Outcome{}, fmt.Errorf("the head kept under an idempotency key of game %s: %w", out.GameID, err)
	}
	var seed *games.Seed
	switch {
	case t != nil && t.ID == out.GameID && t.seed != nil:
		seed = t.seed
	case secret.found:
		sd, err := secret.open(s.seeds, out.GameID)
		if err != nil {
			return Outcome{}, err
		}
		seed = &sd
	default:
		sd, err := s.loadSeed(ctx, tx, out.GameID)
		if errors.Is(err, pgx.ErrNoRows) {
			out.Head = ""
			return out, nil
		}
		if err != nil {
			return Outcome{}, fmt.Errorf("read the seed of game %s: %w", out.GameID, err)
		}
		seed = &sd
	}
	out.Head = archive.ReceiptHead(*seed, out.GameID, raw)
	return out, nil
}
