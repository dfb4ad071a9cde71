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
// acted (or owns the cards), another seat and the spectator, in English and
// in French.
type describeCase struct {
	name string
	// play builds a game and returns it with the event to describe, the
	// acting seat and another seat.
	play                          func(t *testing.T) (g *game, e Event, actor, other int)
	actor, other, spectator       string
	frActor, frOther, frSpectator string
	hiddenFromOther               []string // English words that must not reach the other seat and the spectator
}

// hiddenInFrench are the French words of a describeCase's hiddenFromOther.
var hiddenInFrench = map[string]string{
	"Duke": "Duc", "Captain": "Capitaine", "Contessa": "Comtesse", "Assassin": "Assassin",
	"Ambassador": "Ambassadeur", "Inquisitor": "Inquisiteur", "face": "face", "down": "cachée",
}

// TestDescribe describes every event type (section 5: hidden cards named to
// their owner, or to the player the rules show them to, only) for the actor,
// another seat and the spectator, in English and in French, and checks each
// against the description of the seat's redacted event. Every description
// is a text the catalog says exactly, in both languages.
func TestDescribe(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range describeCases() {
		t.Run(tc.name, func(t *testing.T) {
			g, e, actor, other := tc.play(t)
			covered[e.Type] = true
			s := g.at(e)
			for _, r := range []struct {
				seat games.Seat
				lang string
				want string
			}{
				{games.Seat(actor), "en", tc.actor}, {games.Seat(other), "en", tc.other}, {games.Spectator, "en", tc.spectator},
				{games.Seat(actor), "fr", tc.frActor}, {games.Seat(other), "fr", tc.frOther}, {games.Spectator, "fr", tc.frSpectator},
			} {
				say := words.In(r.lang)
				phrase := (Rules{}).Describe(s, e, r.seat)
				if err := say.Check(phrase.Text); err != nil {
					t.Errorf("seat %d in %s: %v", r.seat, r.lang, err)
				}
				got := phrase.In(r.lang)
				want := strings.NewReplacer(
					"{drew}", say.Must(theChar(e.Drew)), "{cards}", say.Must(cardList(e.Cards)), "{drawn}", say.Must(cardList(s.Ctx.Drawn)),
					"{ana}", say.Must(cardList(hand(e, ana))), "{bob}", say.Must(cardList(hand(e, bob))),
				).Replace(r.want)
				if got != want {
					t.Errorf("seat %d in %s: %q, want %q", r.seat, r.lang, got, want)
				}
				if red := (Rules{}).Describe(s, (Rules{}).Redact(s, e, r.seat), r.seat).In(r.lang); red != got {
					t.Errorf("seat %d in %s: the redacted event reads %q, the event %q", r.seat, r.lang, red, got)
				}
				if r.seat != games.Seat(actor) {
					for _, w := range tc.hiddenFromOther {
						if r.lang == "fr" {
							w = hiddenInFrench[w]
						}
						if strings.Contains(got, w) {
							t.Errorf("seat %d is told %q in %s: %q", r.seat, w, r.lang, got)
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
			frActor:         "Vous, Bob, Cal et Dee prenez place dans cet ordre avec 2 pièces chacun, et vous commencez. Vous recevez le Duc et le Capitaine.",
			frOther:         "Ana, vous, Cal et Dee prenez place dans cet ordre avec 2 pièces chacun, et Ana commence. Vous recevez l’Assassin et la Comtesse.",
			frSpectator:     "Ana, Bob, Cal et Dee prennent place dans cet ordre avec 2 pièces chacun, et Ana commence.",
			hiddenFromOther: []string{"Duke", "Captain"},
		},
		{
			name: "setup_two_players",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, [][]Char{nil, nil}, []int{1, 2})
				return g, g.log[0], ana, bob
			},
			actor:       "You and Bob sit down in this order; you start with 1 coin and Bob with 2 coins, and each keeps one card of a set of five.",
			other:       "Ana and you sit down in this order; Ana starts with 1 coin and you with 2 coins, and each keeps one card of a set of five.",
			spectator:   "Ana and Bob sit down in this order; Ana starts with 1 coin and Bob with 2 coins, and each keeps one card of a set of five.",
			frActor:     "Vous et Bob prenez place dans cet ordre ; vous commencez avec 1 pièce et Bob avec 2 pièces, et chacun garde une carte d’une série de cinq.",
			frOther:     "Ana et vous prenez place dans cet ordre ; Ana commence avec 1 pièce et vous avec 2 pièces, et chacun garde une carte d’une série de cinq.",
			frSpectator: "Ana et Bob prennent place dans cet ordre ; Ana commence avec 1 pièce et Bob avec 2 pièces, et chacun garde une carte d’une série de cinq.",
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
			frActor:         "Vous gardez la Comtesse et mettez de côté les quatre autres cartes de votre série.",
			frOther:         "Ana garde une carte de sa série et met les quatre autres de côté.",
			frSpectator:     "Ana garde une carte de sa série et met les quatre autres de côté.",
			hiddenFromOther: []string{"Contessa"},
		},
		{
			name: "dealt",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, [][]Char{nil, nil}, []int{1, 2})
				g.do(ana, "keep duke")
				return g, find(t, g.do(bob, "keep duke"), evDealt), ana, bob
			},
			actor:       "Each player is dealt one card from the Court. You are dealt {ana}.",
			other:       "Each player is dealt one card from the Court. You are dealt {bob}.",
			spectator:   "Each player is dealt one card from the Court.",
			frActor:     "Chaque joueur reçoit une carte de la Cour. Vous recevez {ana}.",
			frOther:     "Chaque joueur reçoit une carte de la Cour. Vous recevez {bob}.",
			frSpectator: "Chaque joueur reçoit une carte de la Cour.",
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
			frActor:         "Vous posez votre carte de faction face cachée.",
			frOther:         "Cal choisit sa faction.",
			frSpectator:     "Cal choisit sa faction.",
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
			actor:       "The factions are revealed: Ana and Cal face up, Bob and you face down.",
			other:       "The factions are revealed: you and Cal face up, Bob and Dee face down.",
			spectator:   "The factions are revealed: Ana and Cal face up, Bob and Dee face down.",
			frActor:     "Les factions sont révélées : Ana et Cal face visible, Bob et vous face cachée.",
			frOther:     "Les factions sont révélées : vous et Cal face visible, Bob et Dee face cachée.",
			frSpectator: "Les factions sont révélées : Ana et Cal face visible, Bob et Dee face cachée.",
		},
		{
			name: "auto_allow",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				return g, g.do(cal, "auto-allow block on")[0], cal, ana
			},
			actor:       "You turn auto-allow on for block windows.",
			other:       "Cal turns auto-allow on for block windows.",
			spectator:   "Cal turns auto-allow on for block windows.",
			frActor:     "Vous activez le passage automatique pour les fenêtres de blocage.",
			frOther:     "Cal active le passage automatique pour les fenêtres de blocage.",
			frSpectator: "Cal active le passage automatique pour les fenêtres de blocage.",
		},
		{
			name: "auto_allow_all",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				return g, g.do(cal, "auto-allow all on")[0], cal, ana
			},
			actor:       "You turn auto-allow on for every window.",
			other:       "Cal turns auto-allow on for every window.",
			spectator:   "Cal turns auto-allow on for every window.",
			frActor:     "Vous activez le passage automatique pour toutes les fenêtres.",
			frOther:     "Cal active le passage automatique pour toutes les fenêtres.",
			frSpectator: "Cal active le passage automatique pour toutes les fenêtres.",
		},
		{
			name:        "action_income",
			play:        func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.do(ana, "income")[0], ana, bob },
			actor:       "You take income.",
			other:       "Ana takes income.",
			spectator:   "Ana takes income.",
			frActor:     "Vous prenez le revenu.",
			frOther:     "Ana prend le revenu.",
			frSpectator: "Ana prend le revenu.",
		},
		{
			name:        "action_tax",
			play:        func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.do(ana, "tax")[0], ana, bob },
			actor:       "You claim the Duke to take tax.",
			other:       "Ana claims the Duke to take tax.",
			spectator:   "Ana claims the Duke to take tax.",
			frActor:     "Vous annoncez le Duc pour prendre la taxe.",
			frOther:     "Ana annonce le Duc pour prendre la taxe.",
			frSpectator: "Ana annonce le Duc pour prendre la taxe.",
		},
		{
			name: "action_assassinate_target",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{3, 2, 2, 2})
				return g, g.do(ana, "assassinate bob")[0], ana, bob
			},
			actor:       "You claim the Assassin and pay 3 coins to assassinate Bob.",
			other:       "Ana claims the Assassin and pays 3 coins to assassinate you.",
			spectator:   "Ana claims the Assassin and pays 3 coins to assassinate Bob.",
			frActor:     "Vous annoncez l’Assassin et payez 3 pièces pour assassiner Bob.",
			frOther:     "Ana annonce l’Assassin et paie 3 pièces pour vous assassiner.",
			frSpectator: "Ana annonce l’Assassin et paie 3 pièces pour assassiner Bob.",
		},
		{
			name: "action_steal",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				return g, g.do(ana, "steal cal")[0], ana, bob
			},
			actor:       "You claim the Captain to steal from Cal.",
			other:       "Ana claims the Captain to steal from Cal.",
			spectator:   "Ana claims the Captain to steal from Cal.",
			frActor:     "Vous annoncez le Capitaine pour voler Cal.",
			frOther:     "Ana annonce le Capitaine pour voler Cal.",
			frSpectator: "Ana annonce le Capitaine pour voler Cal.",
		},
		{
			name:        "action_exchange",
			play:        func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.do(ana, "exchange")[0], ana, bob },
			actor:       "You claim the Ambassador to exchange cards with the Court.",
			other:       "Ana claims the Ambassador to exchange cards with the Court.",
			spectator:   "Ana claims the Ambassador to exchange cards with the Court.",
			frActor:     "Vous annoncez l’Ambassadeur pour échanger des cartes avec la Cour.",
			frOther:     "Ana annonce l’Ambassadeur pour échanger des cartes avec la Cour.",
			frSpectator: "Ana annonce l’Ambassadeur pour échanger des cartes avec la Cour.",
		},
		{
			name: "action_exchange_inquisitor",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"inquisitor": "on"}, inq4(), nil)
				return g, g.do(ana, "exchange")[0], ana, bob
			},
			actor:       "You claim the Inquisitor to exchange cards with the Court.",
			other:       "Ana claims the Inquisitor to exchange cards with the Court.",
			spectator:   "Ana claims the Inquisitor to exchange cards with the Court.",
			frActor:     "Vous annoncez l’Inquisiteur pour échanger des cartes avec la Cour.",
			frOther:     "Ana annonce l’Inquisiteur pour échanger des cartes avec la Cour.",
			frSpectator: "Ana annonce l’Inquisiteur pour échanger des cartes avec la Cour.",
		},
		{
			name: "action_examine",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"inquisitor": "on"}, inq4(), nil)
				return g, g.do(ana, "examine bob")[0], ana, bob
			},
			actor:       "You claim the Inquisitor to examine Bob.",
			other:       "Ana claims the Inquisitor to examine you.",
			spectator:   "Ana claims the Inquisitor to examine Bob.",
			frActor:     "Vous annoncez l’Inquisiteur pour examiner Bob.",
			frOther:     "Ana annonce l’Inquisiteur pour vous examiner.",
			frSpectator: "Ana annonce l’Inquisiteur pour examiner Bob.",
		},
		{
			name: "action_coup",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
				return g, g.do(ana, "coup dee")[0], ana, bob
			},
			actor:       "You pay 7 coins to coup Dee.",
			other:       "Ana pays 7 coins to coup Dee.",
			spectator:   "Ana pays 7 coins to coup Dee.",
			frActor:     "Vous payez 7 pièces pour un coup d’État contre Dee.",
			frOther:     "Ana paie 7 pièces pour un coup d’État contre Dee.",
			frSpectator: "Ana paie 7 pièces pour un coup d’État contre Dee.",
		},
		{
			name: "action_selective_coup",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"selective_coup": "on"}, deal4(), []int{7, 2, 2, 2})
				return g, g.do(ana, "coup dee captain")[0], ana, dee
			},
			actor:       "You pay 7 coins to coup Dee, naming the Captain.",
			other:       "Ana pays 7 coins to coup you, naming the Captain.",
			spectator:   "Ana pays 7 coins to coup Dee, naming the Captain.",
			frActor:     "Vous payez 7 pièces pour un coup d’État contre Dee, en nommant le Capitaine.",
			frOther:     "Ana paie 7 pièces pour un coup d’État contre vous, en nommant le Capitaine.",
			frSpectator: "Ana paie 7 pièces pour un coup d’État contre Dee, en nommant le Capitaine.",
		},
		{
			name: "action_defect",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := factionGame(t)
				return g, g.do(ana, "defect")[0], ana, bob
			},
			actor:       "You pay 1 coin to defect.",
			other:       "Ana pays 1 coin to defect.",
			spectator:   "Ana pays 1 coin to defect.",
			frActor:     "Vous payez 1 pièce pour faire défection.",
			frOther:     "Ana paie 1 pièce pour faire défection.",
			frSpectator: "Ana paie 1 pièce pour faire défection.",
		},
		{
			name: "action_foreign_aid",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				return g, g.do(ana, "foreign aid")[0], ana, bob
			},
			actor:       "You ask for foreign aid.",
			other:       "Ana asks for foreign aid.",
			spectator:   "Ana asks for foreign aid.",
			frActor:     "Vous demandez l’aide étrangère.",
			frOther:     "Ana demande l’aide étrangère.",
			frSpectator: "Ana demande l’aide étrangère.",
		},
		{
			name: "allow",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "tax")
				return g, g.do(bob, "allow")[0], bob, ana
			},
			actor:       "You allow.",
			other:       "Bob allows.",
			spectator:   "Bob allows.",
			frActor:     "Vous laissez passer.",
			frOther:     "Bob laisse passer.",
			frSpectator: "Bob laisse passer.",
		},
		{
			name: "allow_auto",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(dee, "auto-allow challenge on")
				return g, find(t, g.do(ana, "tax"), evAllow), dee, ana
			},
			actor:       "You allow (auto-allow).",
			other:       "Dee allows (auto-allow).",
			spectator:   "Dee allows (auto-allow).",
			frActor:     "Vous laissez passer (passage automatique).",
			frOther:     "Dee laisse passer (passage automatique).",
			frSpectator: "Dee laisse passer (passage automatique).",
		},
		{
			name: "challenge_claim",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "tax")
				return g, g.do(cal, "challenge")[0], cal, ana
			},
			actor:       "You challenge Ana's claim of the Duke.",
			other:       "Cal challenges your claim of the Duke.",
			spectator:   "Cal challenges Ana's claim of the Duke.",
			frActor:     "Vous contestez Ana, qui annonce le Duc.",
			frOther:     "Cal conteste le Duc que vous annoncez.",
			frSpectator: "Cal conteste Ana, qui annonce le Duc.",
		},
		{
			name: "block",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "steal bob")
				g.allAllow()
				return g, g.do(bob, "block ambassador")[0], bob, ana
			},
			actor:       "You claim the Ambassador to block Ana's steal.",
			other:       "Bob claims the Ambassador to block your steal.",
			spectator:   "Bob claims the Ambassador to block Ana's steal.",
			frActor:     "Vous annoncez l’Ambassadeur pour bloquer le vol tenté par Ana.",
			frOther:     "Bob annonce l’Ambassadeur pour bloquer votre tentative de vol.",
			frSpectator: "Bob annonce l’Ambassadeur pour bloquer le vol tenté par Ana.",
		},
		{
			name: "challenge_block",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "foreign aid")
				g.do(bob, "block duke")
				return g, g.do(ana, "challenge")[0], ana, bob
			},
			actor:       "You challenge Bob's block with the Duke.",
			other:       "Ana challenges your block with the Duke.",
			spectator:   "Ana challenges Bob's block with the Duke.",
			frActor:     "Vous contestez Bob, qui bloque avec le Duc.",
			frOther:     "Ana conteste votre blocage avec le Duc.",
			frSpectator: "Ana conteste Bob, qui bloque avec le Duc.",
		},
		{
			name: "revealed_proven",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "tax")
				g.do(cal, "challenge")
				return g, g.do(ana, "reveal duke")[0], ana, cal
			},
			actor:       "You reveal the Duke: the claim is proven, and Cal must lose an influence.",
			other:       "Ana reveals the Duke: the claim is proven, and you must lose an influence.",
			spectator:   "Ana reveals the Duke: the claim is proven, and Cal must lose an influence.",
			frActor:     "Vous révélez le Duc : l’annonce est vérifiée, et Cal doit perdre une influence.",
			frOther:     "Ana révèle le Duc : l’annonce est vérifiée, et vous devez perdre une influence.",
			frSpectator: "Ana révèle le Duc : l’annonce est vérifiée, et Cal doit perdre une influence.",
		},
		{
			name: "revealed_failed_refund",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{3, 2, 2, 2})
				g.do(ana, "assassinate bob")
				g.do(cal, "challenge")
				return g, g.do(ana, "reveal captain")[0], ana, cal
			},
			actor:       "You reveal the Captain, not the Assassin, and lose it; your assassination does not happen. You get 3 coins back.",
			other:       "Ana reveals the Captain, not the Assassin, and loses it; Ana's assassination does not happen. Ana gets 3 coins back.",
			spectator:   "Ana reveals the Captain, not the Assassin, and loses it; Ana's assassination does not happen. Ana gets 3 coins back.",
			frActor:     "Vous révélez le Capitaine, pas l’Assassin, et perdez cette carte ; votre tentative d’assassinat n’a pas lieu. Vous récupérez 3 pièces.",
			frOther:     "Ana révèle le Capitaine, pas l’Assassin, et perd cette carte ; la tentative d’assassinat lancée par Ana n’a pas lieu. Ana récupère 3 pièces.",
			frSpectator: "Ana révèle le Capitaine, pas l’Assassin, et perd cette carte ; la tentative d’assassinat lancée par Ana n’a pas lieu. Ana récupère 3 pièces.",
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
			actor:       "You reveal the Assassin, not the Duke, and lose it; the block fails, and you are out.",
			other:       "Bob reveals the Assassin, not the Duke, and loses it; the block fails, and Bob is out.",
			spectator:   "Bob reveals the Assassin, not the Duke, and loses it; the block fails, and Bob is out.",
			frActor:     "Vous révélez l’Assassin, pas le Duc, et perdez cette carte ; le blocage échoue, et vous êtes hors jeu.",
			frOther:     "Bob révèle l’Assassin, pas le Duc, et perd cette carte ; le blocage échoue, et Bob est hors jeu.",
			frSpectator: "Bob révèle l’Assassin, pas le Duc, et perd cette carte ; le blocage échoue, et Bob est hors jeu.",
		},
		{
			name: "lost",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
				g.do(ana, "coup bob")
				return g, g.do(bob, "reveal contessa")[0], bob, ana
			},
			actor:       "You lose an influence and turn the Contessa face up.",
			other:       "Bob loses an influence and turns the Contessa face up.",
			spectator:   "Bob loses an influence and turns the Contessa face up.",
			frActor:     "Vous perdez une influence et retournez la Comtesse face visible.",
			frOther:     "Bob perd une influence et retourne la Comtesse face visible.",
			frSpectator: "Bob perd une influence et retourne la Comtesse face visible.",
		},
		{
			name: "lost_last",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
				g.rigLoss(bob, Contessa)
				return g, find(t, g.do(ana, "coup bob"), evLost), bob, ana
			},
			actor:       "You lose an influence and turn the Assassin face up. You are out.",
			other:       "Bob loses an influence and turns the Assassin face up. Bob is out.",
			spectator:   "Bob loses an influence and turns the Assassin face up. Bob is out.",
			frActor:     "Vous perdez une influence et retournez l’Assassin face visible. Vous êtes hors jeu.",
			frOther:     "Bob perd une influence et retourne l’Assassin face visible. Bob est hors jeu.",
			frSpectator: "Bob perd une influence et retourne l’Assassin face visible. Bob est hors jeu.",
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
			actor:       "You shuffle the Duke into the Court and draw {drew}.",
			other:       "Ana shuffles the Duke into the Court and draws a replacement.",
			spectator:   "Ana shuffles the Duke into the Court and draws a replacement.",
			frActor:     "Vous remettez le Duc dans la Cour et piochez {drew}.",
			frOther:     "Ana remet le Duc dans la Cour et pioche une nouvelle carte.",
			frSpectator: "Ana remet le Duc dans la Cour et pioche une nouvelle carte.",
		},
		{
			name:        "resolved_income",
			play:        func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.do(ana, "income")[1], ana, bob },
			actor:       "You take 1 coin.",
			other:       "Ana takes 1 coin.",
			spectator:   "Ana takes 1 coin.",
			frActor:     "Vous prenez 1 pièce.",
			frOther:     "Ana prend 1 pièce.",
			frSpectator: "Ana prend 1 pièce.",
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
			actor:       "You take 3 coins of tax.",
			other:       "Ana takes 3 coins of tax.",
			spectator:   "Ana takes 3 coins of tax.",
			frActor:     "Vous prenez 3 pièces de taxe.",
			frOther:     "Ana prend 3 pièces de taxe.",
			frSpectator: "Ana prend 3 pièces de taxe.",
		},
		{
			name: "resolved_steal",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{2, 2, 1, 2})
				g.do(ana, "steal cal")
				g.allAllow()
				return g, find(t, g.do(cal, "allow"), evResolved), ana, cal
			},
			actor:       "You take 1 coin from Cal.",
			other:       "Ana takes 1 coin from you.",
			spectator:   "Ana takes 1 coin from Cal.",
			frActor:     "Vous prenez 1 pièce à Cal.",
			frOther:     "Ana vous prend 1 pièce.",
			frSpectator: "Ana prend 1 pièce à Cal.",
		},
		{
			name: "resolved_steal_nothing",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{2, 2, 0, 2})
				g.do(ana, "steal cal")
				g.allAllow()
				return g, find(t, g.do(cal, "allow"), evResolved), ana, cal
			},
			actor:       "You take nothing from Cal, who has no coins.",
			other:       "Ana takes nothing from you, who have no coins.",
			spectator:   "Ana takes nothing from Cal, who has no coins.",
			frActor:     "Vous ne prenez rien à Cal, qui n’a pas de pièces.",
			frOther:     "Ana ne vous prend rien : vous n’avez pas de pièces.",
			frSpectator: "Ana ne prend rien à Cal, qui n’a pas de pièces.",
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
			actor:       "Your steal has no effect: Cal is out.",
			other:       "Bob's steal has no effect: you are out.",
			spectator:   "Bob's steal has no effect: Cal is out.",
			frActor:     "Votre tentative de vol reste sans effet : Cal est hors jeu.",
			frOther:     "Le vol tenté par Bob reste sans effet : vous êtes hors jeu.",
			frSpectator: "Le vol tenté par Bob reste sans effet : Cal est hors jeu.",
		},
		{
			name: "resolved_defect",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := factionGame(t)
				return g, g.do(ana, "defect")[1], ana, bob
			},
			actor:       "Your faction card is now face down.",
			other:       "Ana's faction card is now face down.",
			spectator:   "Ana's faction card is now face down.",
			frActor:     "Vous avez désormais votre carte de faction face cachée.",
			frOther:     "Ana a désormais sa carte de faction face cachée.",
			frSpectator: "Ana a désormais sa carte de faction face cachée.",
		},
		{
			name: "resolved_coup",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
				return g, g.do(ana, "coup dee")[1], ana, dee
			},
			actor:       "Your coup against Dee goes ahead.",
			other:       "Ana's coup against you goes ahead.",
			spectator:   "Ana's coup against Dee goes ahead.",
			frActor:     "Votre coup d’État contre Dee aboutit.",
			frOther:     "Le coup d’État lancé par Ana contre vous aboutit.",
			frSpectator: "Le coup d’État lancé par Ana contre Dee aboutit.",
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
			actor:       "You draw {cards} from the Court.",
			other:       "Ana draws 2 cards from the Court.",
			spectator:   "Ana draws 2 cards from the Court.",
			frActor:     "Vous piochez {cards} dans la Cour.",
			frOther:     "Ana pioche 2 cartes dans la Cour.",
			frSpectator: "Ana pioche 2 cartes dans la Cour.",
		},
		{
			name: "exchanged",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := std(t)
				g.do(ana, "exchange")
				g.allAllow()
				return g, g.do(ana, "keep duke captain")[0], ana, bob
			},
			actor:       "You keep the Duke and the Captain and return {drawn} to the Court.",
			other:       "Ana keeps 2 cards and returns 2 cards to the Court.",
			spectator:   "Ana keeps 2 cards and returns 2 cards to the Court.",
			frActor:     "Vous gardez le Duc et le Capitaine et remettez {drawn} dans la Cour.",
			frOther:     "Ana garde 2 cartes et remet 2 cartes dans la Cour.",
			frSpectator: "Ana garde 2 cartes et remet 2 cartes dans la Cour.",
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
			frActor:         "Vous n’avez pas de Duc et ne perdez rien : vous montrez l’Assassin et la Comtesse à Ana.",
			frOther:         "Bob n’a pas de Duc et ne perd rien : Bob vous montre l’Assassin et la Comtesse.",
			frSpectator:     "Bob n’a pas de Duc et ne perd rien : Bob montre ses cartes à Ana.",
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
			frActor:         "Bob n’a pas de Duc et ne perd rien : Bob vous montre l’Assassin et la Comtesse.",
			frOther:         "Bob n’a pas de Duc et ne perd rien : Bob montre ses cartes à Ana.",
			frSpectator:     "Bob n’a pas de Duc et ne perd rien : Bob montre ses cartes à Ana.",
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
			frActor:         "Vous montrez la Comtesse à Ana.",
			frOther:         "Bob montre une carte à Ana.",
			frSpectator:     "Bob montre une carte à Ana.",
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
			frActor:         "Bob vous montre la Comtesse.",
			frOther:         "Bob montre une carte à Ana.",
			frSpectator:     "Bob montre une carte à Ana.",
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
			actor:       "You return Bob's card.",
			other:       "Ana returns your card.",
			spectator:   "Ana returns Bob's card.",
			frActor:     "Vous rendez sa carte à Bob.",
			frOther:     "Ana vous rend votre carte.",
			frSpectator: "Ana rend sa carte à Bob.",
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
			frActor:         "Ana vous fait changer la Comtesse : vous remettez cette carte dans la Cour et piochez {drew}.",
			frOther:         "Vous faites changer la Comtesse à Bob : Bob remet cette carte dans la Cour et pioche une nouvelle carte.",
			frSpectator:     "Ana fait changer la carte montrée à Bob : Bob remet cette carte dans la Cour et pioche une nouvelle carte.",
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
			frActor:         "Vous faites changer la Comtesse à Bob : Bob remet cette carte dans la Cour et pioche une nouvelle carte.",
			frOther:         "Ana fait changer la carte montrée à Bob : Bob remet cette carte dans la Cour et pioche une nouvelle carte.",
			frSpectator:     "Ana fait changer la carte montrée à Bob : Bob remet cette carte dans la Cour et pioche une nouvelle carte.",
			hiddenFromOther: []string{"Contessa"},
		},
		{
			name:        "resigned",
			play:        func(t *testing.T) (*game, Event, int, int) { g := std(t); return g, g.resign(cal)[0], cal, ana },
			actor:       "You resign and are out: the Captain and the Ambassador are turned face up.",
			other:       "Cal resigns and is out: the Captain and the Ambassador are turned face up.",
			spectator:   "Cal resigns and is out: the Captain and the Ambassador are turned face up.",
			frActor:     "Vous abandonnez, êtes hors jeu et dévoilez le Capitaine et l’Ambassadeur.",
			frOther:     "Cal abandonne, est hors jeu et dévoile le Capitaine et l’Ambassadeur.", //nolint:misspell // French
			frSpectator: "Cal abandonne, est hors jeu et dévoile le Capitaine et l’Ambassadeur.", //nolint:misspell // French
		},
		{
			name: "ended",
			play: func(t *testing.T) (*game, Event, int, int) {
				g := newGame(t, games.Options{"two_player_setup": "standard"}, deal4()[:2], nil)
				return g, last(g.resign(bob)), ana, bob
			},
			actor:       "The game is over: you win, and every card is shown.",
			other:       "The game is over: Ana wins, and every card is shown.",
			spectator:   "The game is over: Ana wins, and every card is shown.",
			frActor:     "La partie est terminée : vous gagnez, et toutes les cartes sont dévoilées.",
			frOther:     "La partie est terminée : Ana gagne, et toutes les cartes sont dévoilées.",
			frSpectator: "La partie est terminée : Ana gagne, et toutes les cartes sont dévoilées.",
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
	for lang, want := range map[string]string{"en": "Ana draws 2 cards from the Court.", "fr": "Ana pioche 2 cartes dans la Cour."} {
		if d, sd := (Rules{}).Describe(s, e, cal).In(lang), (Rules{}).Describe(s, e, games.Spectator).In(lang); d != sd || d != want {
			t.Fatalf("Cal reads %q, the spectator %q, in %s", d, sd, lang)
		}
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
