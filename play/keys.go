package play

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/games"
)

// Idempotency keys are reserved before the work, in the command's first
// round trip: an INSERT … ON CONFLICT DO NOTHING waits for a twin command
// that holds the same key in a transaction still running, then finds its
// result. A key is tied to its user, its game and a hash of its command,
// and expires after the service's key TTL.

// keyRecord is what the reservation found.
type keyRecord struct {
	found  bool // the key was already taken (and not expired)
	gameID string
	hash   []byte
	result []byte
}

// queueReserveKey queues the reservation of actor's key for req on b.
func queueReserveKey(b *pgx.Batch, actor Actor, req request, ttl time.Duration) *keyRecord {
	k := &keyRecord{}
	reserved := false
	b.Queue(`insert into command_keys (user_id, key, game_id, command_hash, expires_at)
		values ($1, $2, $3, $4, now() + $5::interval)
		on conflict (user_id, key) do update set game_id = excluded.game_id, command_hash = excluded.command_hash,
			result = null, created_at = now(), expires_at = excluded.expires_at
		where command_keys.expires_at < now()
		returning true`, actor.User, actor.IdempotencyKey, req.gameID, req.hash, ttl.String()).
		Query(func(rows pgx.Rows) error {
			defer rows.Close()
			reserved = rows.Next()
			return rows.Err()
		})
	b.Queue(`select game_id, command_hash, result from command_keys where user_id = $1 and key = $2`,
		actor.User, actor.IdempotencyKey).QueryRow(func(row pgx.Row) error {
		if reserved {
			return nil
		}
		err := row.Scan(&k.gameID, &k.hash, &k.result)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("look up idempotency key: %w", err)
		}
		k.found = true
		return nil
	})
	return k
}

// replay answers a command whose key was taken: the first result when it is
// the same command, a refusal otherwise.
func (k *keyRecord) replay(req request) (Outcome, error) {
	if !slices.Equal(k.hash, req.hash) || (!req.create && k.gameID != req.gameID) {
		return Outcome{}, refuse(CodeConflict, "refusal.key_reused")
	}
	var prior Outcome
	if k.result == nil {
		return Outcome{}, errors.New("an idempotency key was found without its result")
	}
	if err := json.Unmarshal(k.result, &prior); err != nil {
		return Outcome{}, fmt.Errorf("read the result stored under an idempotency key: %w", err)
	}
	prior.Replay = true
	return prior, nil
}

// queueKeyResult queues the recording of a command's outcome under its key,
// with the raw head hash of the events the batch appended before it (kept
// on the server; a replay serves it sealed, see sealReplayed).
func queueKeyResult(b *pgx.Batch, actor Actor, out Outcome, stream string) {
	b.Queue(`update command_keys set game_id = $4, result = $3::jsonb || coalesce(
			(select jsonb_build_object('head', encode(hash, 'hex')) from events where stream = $5 and version = $6 and $6 > $7),
			'{}')
		where user_id = $1 and key = $2`,
		actor.User, actor.IdempotencyKey, out, out.GameID, stream, out.Version, out.From)
}

// commandHash identifies a command for its idempotency key.
func commandHash(op string, parts ...string) []byte {
	h := sha256.New()
	_, _ = fmt.Fprintf(h, "%s\x00%s", op, strings.Join(parts, "\x00")) // a hash never fails to write
	return h.Sum(nil)
}

// optionsText writes options in a stable order, for a command hash.
func optionsText(opts games.Options) string {
	names := make([]string, 0, len(opts))
	for n := range opts {
		names = append(names, n)
	}
	slices.Sort(names)
	var sb strings.Builder
	for _, n := range names {
		fmt.Fprintf(&sb, "%s=%s;", n, opts[n])
	}
	return sb.String()
}
