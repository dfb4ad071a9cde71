package coup

import (
	"reflect"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// find returns the first event of type typ in evs.
func find(t *testing.T, evs []Event, typ string) Event {
	t.Helper()
	for _, e := range evs {
		if e.Type == typ {
			return e
		}
	}
	t.Fatalf("no %s event in %+v", typ, evs)
	return Event{}
}

// describeCase is one event described for three readers: the seat that
// acted (or owns the cards), another seat and the spectator.
type describeCase struct {
	name string
	// play builds a game and returns it with the event to describe, the
	// acting seat and another seat.
	play                    func(t *testing.T) (g *game, e Event, actor, other int)
	actor, other, spectator string
	hiddenFromOther         []string // words that must not reach the other seat and the spectator
}

// TestDescribe describes every event type (section 5: hidden cards named to
// their owner, or to the player the rules show them to, only) for the actor,
// another seat and the spectator, and checks each against the description of
// the seat's redacted event.
func TestDescribe(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range describeCases() {
		t.Run(tc.name, func(t *testing.T) {
			g, e, actor, other := tc.play(t)
			covered[e.Type] = true
			s := g.at(e)
			for _, r := range []struct {
				seat games.Seat
				want string
			}{{games.Seat(actor), tc.actor}, {games.Seat(other), tc.other}, {games.Spectator, tc.spectator}} {
				got := (Rules{}).Describe(s, e, r.seat).In("en")
				en := words.In("en")
				want := strings.NewReplacer(
					"{drew}", en.Must(theChar(e.Drew)), "{cards}", en.Must(cardList(e.Cards)), "{drawn}", en.Must(cardList(s.Ctx.Drawn)),
					"{ana}", en.Must(cardList(hand(e, ana))), "{bob}", en.Must(cardList(hand(e, bob))),
				).Replace(r.want)
				if got != want {
					t.Errorf("seat %d: %q, want %q", r.seat, got, want)
				}
				if red := (Rules{}).Describe(s, (Rules{}).Redact(s, e, r.seat), r.seat).In("en"); red != got {
					t.Errorf("seat %d: the redacted event reads %q, the event %q", r.seat, red, got)
				}
				if r.seat != games.Seat(actor) {
					for _, w := range tc.hiddenFromOther {
						if strings.Contains(got, w) {
							t.Errorf("seat %d is told %q: %q", r.seat, w, got)
						}
					}
				}
			}
		})
	}
	for _, typ := range []string{evSetup, evKept, evDealt, evFactionChose, evFactions, evAutoAllow, evAction, evAllow,
		evChallenge, evBlock, evRevealed, evLost, evReplaced, evResolved, evExchDrawn, evExchanged, evCoupShown,
		evShown, evReturned, evChanged, evResigned, evEnded} {
		if !covered[typ] {
			t.Errorf("no case describes a %s event", typ)
		}
	}
}

func describeCases() []describeCase {
	std := func(t *testing.T) *game { return newGame(t, nil, deal4(), nil) }
	last := func(evs []Event) Event { return evs[len(evs)-1] }
	return []describeCase{
		{
			name:            "setup",
			play:            func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.log[0], ana, bob },
			actor:           "You, Bob, Cal and Dee sit down in this order with 2 coins each, and you start. You are dealt the Duke and the Captain.",
			other:           "Ana, you, Cal and Dee sit down in this order with 2 coins each, and Ana starts. You are dealt the Assassin and the Contessa.",
			spectator:       "Ana, Bob, Cal and Dee sit down in this order with 2 coins each, and Ana starts.",
			hiddenFromOther: []string{"Duke", "Captain"},
		},
		{
			name: "setup_two_players",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, [][]Char{nil, nil}, []int{1, 2})
				return g, g.log[0], ana, bob
			},
			actor:     "You and Bob sit down in this order; you start with 1 coin and Bob with 2 coins, and each keeps one card of a set of five.",
			other:     "Ana and you sit down in this order; Ana starts with 1 coin and you with 2 coins, and each keeps one card of a set of five.",
			spectator: "Ana and Bob sit down in this order; Ana starts with 1 coin and Bob with 2 coins, and each keeps one card of a set of five.",
		},
		{
			name: "kept",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, [][]Char{nil, nil}, []int{1, 2})
				return g, g.do(ana, "keep contessa")[0], ana, bob
			},
			actor:           "You keep the Contessa and set the other four cards of your set aside.",
			other:           "Ana keeps one card of their set and sets the other four aside.",
			spectator:       "Ana keeps one card of their set and sets the other four aside.",
			hiddenFromOther: []string{"Contessa"},
		},
		{
			name: "dealt",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, [][]Char{nil, nil}, []int{1, 2})
				g.do(ana, "keep duke")
				return g, find(t, g.do(bob, "keep duke"), evDealt), ana, bob
			},
			actor:     "Each player is dealt one card from the Court. You are dealt {ana}.",
			other:     "Each player is dealt one card from the Court. You are dealt {bob}.",
			spectator: "Each player is dealt one card from the Court.",
		},
		{
			name: "faction_chosen",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"factions": "on"}, deal4(), nil)
				return g, g.do(cal, "faction down")[0], cal, ana
			},
			actor:           "You put your faction card face down.",
			other:           "Cal chooses a faction.",
			spectator:       "Cal chooses a faction.",
			hiddenFromOther: []string{"face", "down"},
		},
		{
			name: "factions",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"factions": "on"}, deal4(), nil)
				g.do(ana, "faction up")
				g.do(bob, "faction down")
				g.do(cal, "faction up")
				return g, find(t, g.do(dee, "faction down"), evFactions), dee, ana
			},
			actor:     "The factions are revealed: Ana and Cal face up, Bob and you face down.",
			other:     "The factions are revealed: you and Cal face up, Bob and Dee face down.",
			spectator: "The factions are revealed: Ana and Cal face up, Bob and Dee face down.",
		},
		{
			name: "auto_allow",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				return g, g.do(cal, "auto-allow block on")[0], cal, ana
			},
			actor:     "You turn auto-allow on for block windows.",
			other:     "Cal turns auto-allow on for block windows.",
			spectator: "Cal turns auto-allow on for block windows.",
		},
		{
			name: "auto_allow_all",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				return g, g.do(cal, "auto-allow all on")[0], cal, ana
			},
			actor:     "You turn auto-allow on for every window.",
			other:     "Cal turns auto-allow on for every window.",
			spectator: "Cal turns auto-allow on for every window.",
		},
		{
			name:      "action_income",
			play:      func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.do(ana, "income")[0], ana, bob },
			actor:     "You take income.",
			other:     "Ana takes income.",
			spectator: "Ana takes income.",
		},
		{
			name:      "action_tax",
			play:      func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.do(ana, "tax")[0], ana, bob },
			actor:     "You claim the Duke to take tax.",
			other:     "Ana claims the Duke to take tax.",
			spectator: "Ana claims the Duke to take tax.",
		},
		{
			name: "action_assassinate_target",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{3, 2, 2, 2})
				return g, g.do(ana, "assassinate bob")[0], ana, bob
			},
			actor:     "You claim the Assassin and pay 3 coins to assassinate Bob.",
			other:     "Ana claims the Assassin and pays 3 coins to assassinate you.",
			spectator: "Ana claims the Assassin and pays 3 coins to assassinate Bob.",
		},
		{
			name: "action_steal",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				return g, g.do(ana, "steal cal")[0], ana, bob
			},
			actor:     "You claim the Captain to steal from Cal.",
			other:     "Ana claims the Captain to steal from Cal.",
			spectator: "Ana claims the Captain to steal from Cal.",
		},
		{
			name:      "action_exchange",
			play:      func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.do(ana, "exchange")[0], ana, bob },
			actor:     "You claim the Ambassador to exchange cards with the Court.",
			other:     "Ana claims the Ambassador to exchange cards with the Court.",
			spectator: "Ana claims the Ambassador to exchange cards with the Court.",
		},
		{
			name: "action_exchange_inquisitor",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"inquisitor": "on"}, inq4(), nil)
				return g, g.do(ana, "exchange")[0], ana, bob
			},
			actor:     "You claim the Inquisitor to exchange cards with the Court.",
			other:     "Ana claims the Inquisitor to exchange cards with the Court.",
			spectator: "Ana claims the Inquisitor to exchange cards with the Court.",
		},
		{
			name: "action_examine",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"inquisitor": "on"}, inq4(), nil)
				return g, g.do(ana, "examine bob")[0], ana, bob
			},
			actor:     "You claim the Inquisitor to examine Bob.",
			other:     "Ana claims the Inquisitor to examine you.",
			spectator: "Ana claims the Inquisitor to examine Bob.",
		},
		{
			name: "action_coup",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
				return g, g.do(ana, "coup dee")[0], ana, bob
			},
			actor:     "You pay 7 coins to coup Dee.",
			other:     "Ana pays 7 coins to coup Dee.",
			spectator: "Ana pays 7 coins to coup Dee.",
		},
		{
			name: "action_selective_coup",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"selective_coup": "on"}, deal4(), []int{7, 2, 2, 2})
				return g, g.do(ana, "coup dee captain")[0], ana, dee
			},
			actor:     "You pay 7 coins to coup Dee, naming the Captain.",
			other:     "Ana pays 7 coins to coup you, naming the Captain.",
			spectator: "Ana pays 7 coins to coup Dee, naming the Captain.",
		},
		{
			name: "action_defect",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := factionGame(t)
				return g, g.do(ana, "defect")[0], ana, bob
			},
			actor:     "You pay 1 coin to defect.",
			other:     "Ana pays 1 coin to defect.",
			spectator: "Ana pays 1 coin to defect.",
		},
		{
			name: "action_foreign_aid",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				return g, g.do(ana, "foreign aid")[0], ana, bob
			},
			actor:     "You ask for foreign aid.",
			other:     "Ana asks for foreign aid.",
			spectator: "Ana asks for foreign aid.",
		},
		{
			name: "allow",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "tax")
				return g, g.do(bob, "allow")[0], bob, ana
			},
			actor:     "You allow.",
			other:     "Bob allows.",
			spectator: "Bob allows.",
		},
		{
			name: "allow_auto",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(dee, "auto-allow challenge on")
				return g, find(t, g.do(ana, "tax"), evAllow), dee, ana
			},
			actor:     "You allow (auto-allow).",
			other:     "Dee allows (auto-allow).",
			spectator: "Dee allows (auto-allow).",
		},
		{
			name: "challenge_claim",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "tax")
				return g, g.do(cal, "challenge")[0], cal, ana
			},
			actor:     "You challenge Ana's claim of the Duke.",
			other:     "Cal challenges your claim of the Duke.",
			spectator: "Cal challenges Ana's claim of the Duke.",
		},
		{
			name: "block",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "steal bob")
				g.allAllow()
				return g, g.do(bob, "block ambassador")[0], bob, ana
			},
			actor:     "You claim the Ambassador to block Ana's steal.",
			other:     "Bob claims the Ambassador to block your steal.",
			spectator: "Bob claims the Ambassador to block Ana's steal.",
		},
		{
			name: "challenge_block",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "foreign aid")
				g.do(bob, "block duke")
				return g, g.do(ana, "challenge")[0], ana, bob
			},
			actor:     "You challenge Bob's block with the Duke.",
			other:     "Ana challenges your block with the Duke.",
			spectator: "Ana challenges Bob's block with the Duke.",
		},
		{
			name: "revealed_proven",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "tax")
				g.do(cal, "challenge")
				return g, g.do(ana, "reveal duke")[0], ana, cal
			},
			actor:     "You reveal the Duke: the claim is proven, and Cal must lose an influence.",
			other:     "Ana reveals the Duke: the claim is proven, and you must lose an influence.",
			spectator: "Ana reveals the Duke: the claim is proven, and Cal must lose an influence.",
		},
		{
			name: "revealed_failed_refund",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{3, 2, 2, 2})
				g.do(ana, "assassinate bob")
				g.do(cal, "challenge")
				return g, g.do(ana, "reveal captain")[0], ana, cal
			},
			actor:     "You reveal the Captain, not the Assassin, and lose it; your assassination does not happen. You get 3 coins back.",
			other:     "Ana reveals the Captain, not the Assassin, and loses it; Ana's assassination does not happen. Ana gets 3 coins back.",
			spectator: "Ana reveals the Captain, not the Assassin, and loses it; Ana's assassination does not happen. Ana gets 3 coins back.",
		},
		{
			name: "revealed_failed_block_out",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.rigLoss(bob, Contessa)
				g.do(ana, "foreign aid")
				g.do(bob, "block duke")
				g.do(cal, "challenge")
				return g, g.do(bob, "reveal assassin")[0], bob, cal
			},
			actor:     "You reveal the Assassin, not the Duke, and lose it; the block fails, and you are out.",
			other:     "Bob reveals the Assassin, not the Duke, and loses it; the block fails, and Bob is out.",
			spectator: "Bob reveals the Assassin, not the Duke, and loses it; the block fails, and Bob is out.",
		},
		{
			name: "lost",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
				g.do(ana, "coup bob")
				return g, g.do(bob, "reveal contessa")[0], bob, ana
			},
			actor:     "You lose an influence and turn the Contessa face up.",
			other:     "Bob loses an influence and turns the Contessa face up.",
			spectator: "Bob loses an influence and turns the Contessa face up.",
		},
		{
			name: "lost_last",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
				g.rigLoss(bob, Contessa)
				return g, find(t, g.do(ana, "coup bob"), evLost), bob, ana
			},
			actor:     "You lose an influence and turn the Assassin face up. You are out.",
			other:     "Bob loses an influence and turns the Assassin face up. Bob is out.",
			spectator: "Bob loses an influence and turns the Assassin face up. Bob is out.",
		},
		{
			name: "replaced",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "tax")
				g.do(cal, "challenge")
				g.do(ana, "reveal duke")
				return g, find(t, g.do(cal, "reveal captain"), evReplaced), ana, cal
			},
			actor:     "You shuffle the Duke into the Court and draw {drew}.",
			other:     "Ana shuffles the Duke into the Court and draws a replacement.",
			spectator: "Ana shuffles the Duke into the Court and draws a replacement.",
		},
		{
			name:      "resolved_income",
			play:      func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.do(ana, "income")[1], ana, bob },
			actor:     "You take 1 coin.",
			other:     "Ana takes 1 coin.",
			spectator: "Ana takes 1 coin.",
		},
		{
			name: "resolved_tax",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "tax")
				g.do(bob, "allow")
				g.do(cal, "allow")
				return g, find(t, g.do(dee, "allow"), evResolved), ana, bob
			},
			actor:     "You take 3 coins of tax.",
			other:     "Ana takes 3 coins of tax.",
			spectator: "Ana takes 3 coins of tax.",
		},
		{
			name: "resolved_steal",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{2, 2, 1, 2})
				g.do(ana, "steal cal")
				g.allAllow()
				return g, find(t, g.do(cal, "allow"), evResolved), ana, cal
			},
			actor:     "You take 1 coin from Cal.",
			other:     "Ana takes 1 coin from you.",
			spectator: "Ana takes 1 coin from Cal.",
		},
		{
			name: "resolved_steal_nothing",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{2, 2, 0, 2})
				g.do(ana, "steal cal")
				g.allAllow()
				return g, find(t, g.do(cal, "allow"), evResolved), ana, cal
			},
			actor:     "You take nothing from Cal, who has no coins.",
			other:     "Ana takes nothing from you, who have no coins.",
			spectator: "Ana takes nothing from Cal, who has no coins.",
		},
		{
			name: "resolved_no_effect",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "foreign aid")
				g.allAllow()
				g.do(bob, "steal cal")
				g.allAllow()
				g.do(cal, "block captain")
				g.do(ana, "allow")
				g.do(bob, "allow")
				return g, find(t, g.resign(cal), evResolved), bob, cal
			},
			actor:     "Your steal has no effect: Cal is out.",
			other:     "Bob's steal has no effect: you are out.",
			spectator: "Bob's steal has no effect: Cal is out.",
		},
		{
			name: "resolved_defect",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := factionGame(t)
				return g, g.do(ana, "defect")[1], ana, bob
			},
			actor:     "Your faction card is now face down.",
			other:     "Ana's faction card is now face down.",
			spectator: "Ana's faction card is now face down.",
		},
		{
			name: "resolved_coup",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
				return g, g.do(ana, "coup dee")[1], ana, dee
			},
			actor:     "Your coup against Dee goes ahead.",
			other:     "Ana's coup against you goes ahead.",
			spectator: "Ana's coup against Dee goes ahead.",
		},
		{
			name: "exchange_drawn",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "exchange")
				g.do(bob, "allow")
				g.do(cal, "allow")
				return g, find(t, g.do(dee, "allow"), evExchDrawn), ana, bob
			},
			actor:     "You draw {cards} from the Court.",
			other:     "Ana draws 2 cards from the Court.",
			spectator: "Ana draws 2 cards from the Court.",
		},
		{
			name: "exchanged",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "exchange")
				g.allAllow()
				return g, g.do(ana, "keep duke captain")[0], ana, bob
			},
			actor:     "You keep the Duke and the Captain and return {drawn} to the Court.",
			other:     "Ana keeps 2 cards and returns 2 cards to the Court.",
			spectator: "Ana keeps 2 cards and returns 2 cards to the Court.",
		},
		{
			name: "coup_shown",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"selective_coup": "on"}, deal4(), []int{7, 2, 2, 2})
				return g, find(t, g.do(ana, "coup bob duke"), evCoupShown), bob, ana
			},
			actor:           "You have no Duke and lose nothing: you show the Assassin and the Contessa to Ana.",
			other:           "Bob has no Duke and loses nothing: Bob shows the Assassin and the Contessa to you.",
			spectator:       "Bob has no Duke and loses nothing: Bob shows their cards to Ana.",
			hiddenFromOther: nil, // the couper is told; the spectator check is below
		},
		{
			name: "coup_shown_third_seat",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"selective_coup": "on"}, deal4(), []int{7, 2, 2, 2})
				return g, find(t, g.do(ana, "coup bob duke"), evCoupShown), ana, cal
			},
			actor:           "Bob has no Duke and loses nothing: Bob shows the Assassin and the Contessa to you.",
			other:           "Bob has no Duke and loses nothing: Bob shows their cards to Ana.",
			spectator:       "Bob has no Duke and loses nothing: Bob shows their cards to Ana.",
			hiddenFromOther: []string{"Assassin", "Contessa"},
		},
		{
			name: "shown",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"inquisitor": "on"}, inq4(), nil)
				g.do(ana, "examine bob")
				g.allAllow()
				return g, g.do(bob, "show contessa")[0], bob, cal
			},
			actor:           "You show the Contessa to Ana.",
			other:           "Bob shows a card to Ana.",
			spectator:       "Bob shows a card to Ana.",
			hiddenFromOther: []string{"Contessa"},
		},
		{
			name: "shown_to_inquisitor",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"inquisitor": "on"}, inq4(), nil)
				g.do(ana, "examine bob")
				g.allAllow()
				return g, g.do(bob, "show contessa")[0], ana, dee
			},
			actor:           "Bob shows the Contessa to you.",
			other:           "Bob shows a card to Ana.",
			spectator:       "Bob shows a card to Ana.",
			hiddenFromOther: []string{"Contessa"},
		},
		{
			name: "returned",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"inquisitor": "on"}, inq4(), nil)
				g.do(ana, "examine bob")
				g.allAllow()
				g.do(bob, "show contessa")
				return g, g.do(ana, "return")[0], ana, bob
			},
			actor:     "You return Bob's card.",
			other:     "Ana returns your card.",
			spectator: "Ana returns Bob's card.",
		},
		{
			name: "changed",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"inquisitor": "on"}, inq4(), nil)
				g.do(ana, "examine bob")
				g.allAllow()
				g.do(bob, "show contessa")
				return g, g.do(ana, "change")[0], bob, ana
			},
			actor:           "Ana has you change the Contessa: you shuffle it into the Court and draw {drew}.",
			other:           "You have Bob change the Contessa: Bob shuffles it into the Court and draws a new card.",
			spectator:       "Ana has Bob change the card shown: Bob shuffles it into the Court and draws a new card.",
			hiddenFromOther: nil, // the Inquisitor knows the Contessa; see changed_third_seat
		},
		{
			name: "changed_third_seat",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"inquisitor": "on"}, inq4(), nil)
				g.do(ana, "examine bob")
				g.allAllow()
				g.do(bob, "show contessa")
				return g, g.do(ana, "change")[0], ana, cal
			},
			actor:           "You have Bob change the Contessa: Bob shuffles it into the Court and draws a new card.",
			other:           "Ana has Bob change the card shown: Bob shuffles it into the Court and draws a new card.",
			spectator:       "Ana has Bob change the card shown: Bob shuffles it into the Court and draws a new card.",
			hiddenFromOther: []string{"Contessa"},
		},
		{
			name:      "resigned",
			play:      func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.resign(cal)[0], cal, ana },
			actor:     "You resign and are out: the Captain and the Ambassador are turned face up.",
			other:     "Cal resigns and is out: the Captain and the Ambassador are turned face up.",
			spectator: "Cal resigns and is out: the Captain and the Ambassador are turned face up.",
		},
		{
			name: "ended",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"two_player_setup": "standard"}, deal4()[:2], nil)
				return g, last(g.resign(bob)), ana, bob
			},
			actor:     "The game is over: you win, and every card is shown.",
			other:     "The game is over: Ana wins, and every card is shown.",
			spectator: "The game is over: Ana wins, and every card is shown.",
		},
	}
}

// hand is seat's hand in a deal event.
func hand(e Event, seat int) []Char {
	if seat < len(e.Hands) {
		return e.Hands[seat]
	}
	return nil
}

// inq4 is a 4-player deal with the Inquisitor.
func inq4() [][]Char {
	return [][]Char{h(Duke, Inquisitor), h(Captain, Contessa), h(Captain, Inquisitor), h(Duke, Contessa)}
}

// factionGame is a 4-player game with factions, all face up, Ana to play.
func factionGame(t *testing.T) *game {
	g := newGame(t, games.Options{"factions": "on"}, deal4(), nil)
	for s := range 4 {
		g.do(s, "faction up")
	}
	return g
}

// TestRedactOutSeatIsSpectator: Redact reads the state before the event; a
// seat that is out (eliminated or resigned) sees the public part only, like
// a spectator (section 5), and its description is the spectator's.
func TestRedactOutSeatIsSpectator(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.rigLoss(cal, Captain)
	g.rigLoss(cal, Ambassador)
	g.do(ana, "exchange")
	g.do(bob, "allow")
	e := find(t, g.do(dee, "allow"), evExchDrawn)
	s := g.at(e)
	if red := (Rules{}).Redact(s, e, ana); len(red.Cards) != 2 || red.Redacted {
		t.Fatalf("Ana sees her own draw: %+v", red)
	}
	out, spec := (Rules{}).Redact(s, e, cal), (Rules{}).Redact(s, e, games.Spectator)
	if out.Cards != nil || !reflect.DeepEqual(out, spec) {
		t.Fatalf("Cal, out, sees %+v; the spectator %+v", out, spec)
	}
	if d, sd := (Rules{}).Describe(s, e, cal).String(), (Rules{}).Describe(s, e, games.Spectator).String(); d != sd || d != "Ana draws 2 cards from the Court." {
		t.Fatalf("Cal reads %q, the spectator %q", d, sd)
	}

	// Even an event about the seat's own cards is public-only once it is
	// out: the state, not the event, decides.
	shown := Event{Type: evShown, Seat: cal, Viewer: ana, Char: Captain}
	if red := (Rules{}).Redact(g.s, shown, cal); red.Char != NoChar || !red.Redacted {
		t.Fatalf("Cal, out, is shown %+v", red)
	}
	if red := (Rules{}).Redact(g.s, shown, ana); red.Char != Captain {
		t.Fatalf("Ana, in the game, is not shown the card: %+v", red)
	}

	// The setup event seats its players: each sees its own hand, although
	// the state before it has no players yet.
	setup := g.log[0]
	if red := (Rules{}).Redact((Rules{}).Initial(RulesVersion), setup, dee); !reflect.DeepEqual(red.Hands[dee], h(Duke, Contessa)) || red.Hands[ana] != nil {
		t.Fatalf("Dee's copy of the setup: %+v", red.Hands)
	}
}
