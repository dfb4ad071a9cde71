package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/jobs"
)

// JobInserter inserts background jobs in a transaction; a River client
// (river.Client[pgx.Tx]) is one.
type JobInserter interface {
	InsertManyTx(ctx context.Context, tx pgx.Tx, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)
}

// WithJobs makes every command insert, in its own transaction, the mail jobs
// its events call for (jobs.Prompt, jobs.Receipt, jobs.GameOver,
// jobs.Invitation): the job table is the outbox, so a mail exists exactly
// when the events that cause it do. Without it, commands insert no jobs.
func WithJobs(j JobInserter) Option { return func(s *Service) { s.jobs = j } }

// mailJobs lists the mail a command calls for, once its events are staged:
//   - an invitation to each user it invited;
//   - a prompt to each seat with a pending entry the command opened (in a
//     window every eligible seat gets one);
//   - a receipt to the seat that moved by email;
//   - the end of the game to every seat;
//   - an absence declared or ended to every other seat.
func mailJobs(c *cmdCtx, before []games.Pending, from int, head string) []river.InsertManyParams {
	t := c.table
	if len(c.staged) == 0 {
		return nil
	}
	var out []river.InsertManyParams
	add := func(a river.JobArgs) { out = append(out, river.InsertManyParams{Args: a}) }
	for _, u := range c.invited {
		add(jobs.Invitation{GameID: t.ID, Version: t.Version, User: u})
	}
	if c.seat != nil && c.actor.Channel == ChannelEmail && c.moved {
		r := jobs.Receipt{GameID: t.ID, From: from, Version: t.Version, Seat: *c.seat, Moves: c.played, Head: head}
		if c.refused != nil {
			r.Refused = c.refused.Error()
			// The reason in every language, for the receipt's reader.
			if b, err := json.Marshal(c.refused); err == nil {
				r.RefusedLine = b
			}
			if re, ok := games.AsRuleError(c.refused.Err); ok {
				r.RefusedSuggest = re.Suggest
			}
		}
		add(r)
	}
	if c.disputed {
		return append(out, disputeJobs(c)...)
	}
	if c.takeback {
		out = append(out, takeBackJobs(c)...)
	}
	if last := c.staged[len(c.staged)-1]; c.retimed != nil && (last.Type == TypeAway || last.Type == TypeBack) {
		// The others are told of an absence (their deadlines may wait on it).
		for seat := range t.seatCount() {
			if games.Seat(seat) != *c.retimed {
				add(jobs.AbsenceNotice{GameID: t.ID, Version: t.Version, Seat: seat})
			}
		}
	}
	if c.reveal {
		for seat := range t.seatCount() {
			add(jobs.GameOver{GameID: t.ID, Version: t.Version, Seat: seat})
		}
		return out
	}
	var prompted []games.Seat
	for _, p := range t.Pending {
		taken := c.prompt != nil && *c.prompt == p.Seat
		if slices.Contains(prompted, p.Seat) || !taken && slices.ContainsFunc(before, func(b games.Pending) bool { return b.ID() == p.ID() }) {
			continue
		}
		prompted = append(prompted, p.Seat)
		add(jobs.Prompt{GameID: t.ID, Version: p.Since, Seat: int(p.Seat)})
	}
	return out
}

// insertJobs inserts a command's jobs in its transaction.
func (s *Service) insertJobs(ctx context.Context, tx pgx.Tx, params []river.InsertManyParams) error {
	if s.jobs == nil || len(params) == 0 {
		return nil
	}
	// InsertManyTx, not the COPY of InsertManyFastTx: a timer already
	// queued for the same entry and deadline is skipped, not an error.
	if _, err := s.jobs.InsertManyTx(ctx, tx, params); err != nil {
		return fmt.Errorf("insert %d jobs: %w", len(params), err)
	}
	return nil
}

// disputeJobs tells of a dispute every seat but the disputer's, and the
// referee when they hold no seat; of a ruling, every seat and the referee.
func disputeJobs(c *cmdCtx) []river.InsertManyParams {
	t := c.table
	d := t.Disputes[len(t.Disputes)-1]
	ruling := c.staged[len(c.staged)-1].Type == TypeRuled
	var out []river.InsertManyParams
	for seat := range t.seatCount() {
		if !ruling && games.Seat(seat) == d.Seat {
			continue
		}
		out = append(out, river.InsertManyParams{Args: jobs.DisputeNotice{GameID: t.ID, Version: t.Version, Seat: seat}})
	}
	if ref := t.Referee(); ref != "" && t.SeatOf(ref) == games.Spectator {
		out = append(out, river.InsertManyParams{Args: jobs.DisputeNotice{GameID: t.ID, Version: t.Version, Seat: -1, User: ref}})
	}
	return out
}
