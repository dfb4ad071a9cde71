package play

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/games"
)

// Accounts finds the accounts of the people a new game names (its
// invitees and its referee), creating those never seen before inside the
// game's own transaction: a refused creation leaves no account behind.
// api/auth implements it; a Service takes it through WithAccounts.
type Accounts interface {
	// CheckAddress returns an email address normalized, or an error a
	// person can read saying why it is not one. It touches no database.
	CheckAddress(address string) (string, error)
	// Invitee returns the opaque user id of the account at a checked
	// address, creating the account in tx the first time the address is
	// seen, and whether that person asked courrier for no invitations.
	Invitee(ctx context.Context, tx pgx.Tx, address string) (user string, noInvitations bool, err error)
}

// WithAccounts sets where a new game's invitees and referee get their
// accounts. Without it a game can be created with no invitee and no
// referee only.
func WithAccounts(a Accounts) Option { return func(s *Service) { s.accounts = a } }

// GameRequest is a game to create as every door says it, in words: the
// API's body, the web's form and a mail's "new" command all become one,
// and CreateGame checks all of it.
type GameRequest struct {
	// Kind is the game's id in the catalog ("coyote").
	Kind string
	// Options are the game's options by name; missing ones take their
	// defaults.
	Options map[string]string
	// Name is the creator's player name; empty: the creator does not play.
	Name string
	// Invite lists the email addresses of the people invited to take a
	// seat. Each gets an invitation; the game starts by itself when all
	// have joined.
	Invite []string
	// Referee, when set, is the email address of the person without a
	// seat who rules on disputes.
	Referee string
	// Deadlines overrides the default deadlines (DefaultTurnDeadline,
	// DefaultWindowDeadline) by kind ("turn", "window" or a kind of the
	// game), each written as ParseDuration reads it ("72h", "3d").
	Deadlines map[string]string
	// Weekdays, when set, are the only days (UTC) on which deadlines run
	// ("mon", "tuesday").
	Weekdays []string
	// MinReliability, when set, is the percentage of deadlines met (over
	// the last 12 months) a player needs to join ("90"); MinFinished the
	// games they must have finished in that time ("5"). Neither applies
	// to the creator or to the people they invite.
	MinReliability string
	MinFinished    string
	// Unrated keeps the game out of its players' ratings (a game is rated
	// by default).
	Unrated bool
}

// Create makes a new game of kind with options; when name is not empty the
// creator also takes a place under that name.
func (s *Service) Create(ctx context.Context, actor Actor, kind string, opts games.Options, name string) (Outcome, error) {
	return s.CreateGame(ctx, actor, GameRequest{Kind: kind, Options: opts, Name: name})
}

// CreateGame makes a new game as req says, for every door: it checks the
// game, its options, its deadlines and weekdays, the seats, and the
// invitees and the referee, whose accounts it creates in the game's
// transaction; an invitee (or referee) who asked for no invitations is
// refused. Every refusal is a *Error or a game's rule error.
func (s *Service) CreateGame(ctx context.Context, actor Actor, req GameRequest) (Outcome, error) {
	spec, err := s.checkGame(actor, req)
	if err != nil {
		return Outcome{}, err
	}
	id := newID()
	seed := s.seed()
	var invited []string
	var referee string
	r := request{gameID: id, create: true, hash: commandHash("create", spec.kind, optionsText(spec.options), spec.name,
		strings.Join(spec.invite, ","), deadlinesText(spec.deadlines), strings.Join(spec.days, ","), spec.referee,
		spec.requires.text(), strconv.FormatBool(spec.unrated), spec.press, strconv.FormatBool(spec.pressReveal))}
	r.prepare = func(ctx context.Context, tx pgx.Tx) error {
		var err error
		invited, referee, err = s.accountsOf(ctx, tx, actor, spec)
		return err
	}
	return s.exec(ctx, actor, r, func(c *cmdCtx) error {
		c.newSeed = &seed
		c.table.seed = &seed
		created := Created{
			Kind: spec.kind, Options: spec.options, Rules: spec.info.Rules, Shuffle: games.ShuffleAlgorithm,
			Commitment: seed.Commitment(), Creator: actor.User, Deadlines: spec.deadlines.encode(), Weekdays: spec.days,
			Referee: referee, Unrated: spec.unrated, Requires: spec.requires,
		}
		if spec.press != PressPublic || spec.pressReveal {
			created.Press, created.PressReveal = spec.press, spec.pressReveal
		}
		if err := c.stage(TypeCreated, created, ""); err != nil {
			return err
		}
		if spec.name != "" {
			if err := join(c, actor, spec.name); err != nil {
				return err
			}
		}
		if len(invited) > 0 {
			c.invited = invited
			return c.stage(TypeInvited, Invited{Users: invited}, "")
		}
		return nil
	})
}

// newGame is a GameRequest checked, before its accounts are found.
type newGame struct {
	kind      string
	info      games.Info
	options   games.Options
	name      string
	invite    []string // normalized addresses, each once
	referee   string   // a normalized address, or ""
	deadlines Deadlines
	days      []string
	requires  *Requirement
	unrated   bool
	// press and pressReveal are the game's talk options.
	press       string
	pressReveal bool
}

// checkGame checks everything of a request that needs no database.
func (s *Service) checkGame(actor Actor, req GameRequest) (newGame, error) {
	var spec newGame
	spec.kind = strings.ToLower(strings.TrimSpace(req.Kind))
	eng, err := s.reg.Get(spec.kind)
	if err != nil {
		if spec.kind == "" {
			return spec, refuse(CodeInvalid, "refusal.which_game", strings.Join(s.reg.IDs(), ", "))
		}
		return spec, refuse(CodeInvalid, "refusal.no_game_here", req.Kind, strings.Join(s.reg.IDs(), ", "))
	}
	own, press, reveal, err := pressOf(req.Options)
	if err != nil {
		return spec, err
	}
	spec.press, spec.pressReveal = press, reveal
	if spec.options, err = eng.Options(games.Options(own)); err != nil {
		return spec, err
	}
	if actor.User == "" {
		return spec, refuse(CodeForbidden, "refusal.create_signed_in")
	}
	spec.info = eng.Info()
	spec.name = strings.TrimSpace(req.Name)
	seen := map[string]bool{}
	for _, a := range req.Invite {
		if strings.TrimSpace(a) == "" {
			continue
		}
		addr, err := s.checkAddress("address.invitee", a)
		if err != nil {
			return spec, err
		}
		if !seen[strings.ToLower(addr)] {
			seen[strings.ToLower(addr)] = true
			spec.invite = append(spec.invite, addr)
		}
	}
	if strings.TrimSpace(req.Referee) != "" {
		if spec.referee, err = s.checkAddress("address.referee", req.Referee); err != nil {
			return spec, err
		}
		if seen[strings.ToLower(spec.referee)] {
			return spec, refuse(CodeInvalid, "refusal.referee_invited", spec.referee)
		}
	}
	seats := len(spec.invite)
	if spec.name != "" {
		seats++
	}
	if seats > spec.info.MaxSeats {
		return spec, refuse(CodeInvalid, "refusal.too_many_seats", spec.info.Name, spec.info.MaxSeats, seats)
	}
	if len(spec.invite) > 0 && seats < spec.info.MinSeats {
		return spec, refuse(CodeInvalid, "refusal.too_few_seats", spec.info.Name, spec.info.MinSeats, seats)
	}
	given := Deadlines{}
	for _, k := range slices.Sorted(maps.Keys(req.Deadlines)) {
		v := strings.TrimSpace(req.Deadlines[k])
		if v == "" {
			continue
		}
		kind := strings.ToLower(strings.TrimSpace(k))
		d, err := ParseDuration(v)
		if err != nil {
			return spec, &Error{Code: CodeInvalid, Message: words.Phrase("refusal.deadline_of", kind, phraseOf(err)), Err: err}
		}
		given[kind] = d
	}
	if spec.deadlines, err = given.withDefaults(); err != nil {
		return spec, err
	}
	weekdays, err := ParseWeekdays(req.Weekdays)
	if err != nil {
		return spec, err
	}
	for _, d := range weekdays {
		spec.days = append(spec.days, strings.ToLower(d.String()[:3]))
	}
	if spec.requires, err = parseRequirement(req.MinReliability, req.MinFinished); err != nil {
		return spec, err
	}
	spec.unrated = req.Unrated
	return spec, nil
}

// checkAddress normalizes an invitee's or a referee's address; what says
// which, in a refusal.
func (s *Service) checkAddress(what, address string) (string, error) {
	if s.accounts == nil {
		return "", refuse(CodeInvalid, "refusal.no_invite_server")
	}
	addr, err := s.accounts.CheckAddress(address)
	if err != nil {
		return "", &Error{Code: CodeInvalid, Message: words.Phrase("refusal.bad_address", games.T(what), strings.TrimSpace(address)), Err: err}
	}
	return addr, nil
}

// accountsOf finds or creates, in tx, the accounts of a new game's
// invitees and referee, and checks what needs them: nobody invites
// themselves, nobody who asked for no invitations is named, the referee
// holds no seat.
func (s *Service) accountsOf(ctx context.Context, tx pgx.Tx, actor Actor, spec newGame) ([]string, string, error) {
	var invited []string
	for _, addr := range spec.invite {
		u, no, err := s.accounts.Invitee(ctx, tx, addr)
		if err != nil {
			return nil, "", fmt.Errorf("find the account of an invitee: %w", err)
		}
		if u == actor.User {
			return nil, "", refuse(CodeInvalid, "refusal.invite_self", addr)
		}
		if no {
			return nil, "", refuse(CodeForbidden, "refusal.no_invitations_invite", addr)
		}
		if !slices.Contains(invited, u) {
			invited = append(invited, u)
		}
	}
	if spec.referee == "" {
		return invited, "", nil
	}
	referee, no, err := s.accounts.Invitee(ctx, tx, spec.referee)
	if err != nil {
		return nil, "", fmt.Errorf("find the account of the referee: %w", err)
	}
	if referee == actor.User && spec.name != "" || slices.Contains(invited, referee) {
		return nil, "", refuse(CodeInvalid, "refusal.referee_plays")
	}
	if no {
		return nil, "", refuse(CodeForbidden, "refusal.no_invitations_referee", spec.referee)
	}
	return invited, referee, nil
}
