package coyote

import (
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// A description row: seat's description of event e of tb's log must be
// want in English and fr in French, and must not contain absent (a
// feather hidden from seat) in either.
type describeRow struct {
	name   string
	tb     *table
	e      Event
	seat   games.Seat
	want   string
	fr     string
	absent string
}

func (r describeRow) check(t *testing.T) {
	t.Helper()
	s := r.tb.before(r.e)
	got := Rules{}.Describe(s, r.e, r.seat)
	red := Rules{}.Describe(s, Rules{}.Redact(s, r.e, r.seat), r.seat)
	for lang, want := range map[string]string{games.English: r.want, "fr": r.fr} {
		said := got.In(lang)
		if said != want {
			t.Errorf("seat %d in %s: got  %q\nwant %q", r.seat, lang, said, want)
		}
		if r.absent != "" && strings.Contains(said, r.absent) {
			t.Errorf("seat %d is told %q in %s: %q", r.seat, r.absent, lang, said)
		}
		if red.In(lang) != said {
			t.Errorf("seat %d in %s: the redacted event is described %q, the event %q", r.seat, lang, red.In(lang), said)
		}
	}
}

// Section 5 in words: a round with every token. Ana wears 20, Bob 2, Cal 3,
// Dee 4; reveal turns 5, replace puts 6 in front of Bob's 2.
func TestDescribe_Round_Section5(t *testing.T) {
	tb := rig(t, 4, games.Options{OptVariantTokens: "on"}, "20", "2", "3", "4", "5", "6")
	const ana, bob, cal, dee, spec = 0, 1, 2, 3, games.Spectator
	setup, shuffle, deal := tb.log[0], tb.log[1], tb.log[2]
	reveal := tb.play("Ana", "reveal")[0]
	bid := tb.play("Ana", "bid 4")[0]
	replace := tb.play("Bob", "replace")[0]
	tb.play("Bob", "bid 5")
	skip := tb.play("Cal", "skip")[0]
	reverse := tb.play("Dee", "reverse")[0]
	tb.play("Dee", "bid 6")
	declare := tb.play("Cal", "declare 3")[0] // right: Cal withdraws
	evs := tb.play("Bob", "coyote")
	call, count, take, end := evs[0], find(t, evs, EvCount), find(t, evs, EvCoyote), find(t, evs, EvRoundEnd)
	deal2 := find(t, evs, EvDeal)

	const dealt = "Round 1 began; "
	for _, r := range []describeRow{
		{"setup, seated", tb, setup, bob, "The game begins with Ana, Bob (you), Cal and Dee, in seat order. Deck: 30 feathers (the current edition); 3 coyote tokens eliminate, variant tokens on.", "La partie commence avec Ana, Bob (vous), Cal et Dee, dans cet ordre autour de la table. Plumes : 30 plumes (l’édition actuelle) ; on est éliminé au 3e jeton coyote ; jetons de la variante : oui.", ""},
		{"setup, spectator", tb, setup, spec, "The game begins with Ana, Bob, Cal and Dee, in seat order. Deck: 30 feathers (the current edition); 3 coyote tokens eliminate, variant tokens on.", "La partie commence avec Ana, Bob, Cal et Dee, dans cet ordre autour de la table. Plumes : 30 plumes (l’édition actuelle) ; on est éliminé au 3e jeton coyote ; jetons de la variante : oui.", "(you)"},
		{"shuffle", tb, shuffle, ana, "The 30 feathers were shuffled face down into the pile.", "Les 30 plumes ont été mélangées face cachée pour former la pile.", ""},
		{"deal, first bidder: not her own 20", tb, deal, ana, dealt + "you bid first. You see Bob's 2, Cal's 3 and Dee's 4; your own feather is hidden from you.", "La manche 1 commence ; vous annoncez en premier. Vous voyez ces plumes : Bob (2), Cal (3) et Dee (4) ; la vôtre vous est cachée.", "20"},
		{"deal, another seat sees Ana's 20", tb, deal, bob, dealt + "Ana bids first. You see Ana's 20, Cal's 3 and Dee's 4; your own feather is hidden from you.", "La manche 1 commence ; Ana annonce en premier. Vous voyez ces plumes : Ana (20), Cal (3) et Dee (4) ; la vôtre vous est cachée.", "Bob's"},
		{"deal, spectator sees none", tb, deal, spec, dealt + "Ana bids first. Each player wears a feather hidden from you.", "La manche 1 commence ; Ana annonce en premier. Chaque joueur porte une plume que vous ne voyez pas.", "20"},
		{"reveal, actor", tb, reveal, ana, "You flipped reveal and turned the 5 face up from the pile; it is counted.", "Vous avez retourné le jeton « révéler » et découvert la plume 5 de la pile ; elle sera comptée.", ""},
		{"reveal, spectator", tb, reveal, spec, "Ana flipped reveal and turned the 5 face up from the pile; it is counted.", "Ana a retourné le jeton « révéler » et découvert la plume 5 de la pile ; elle sera comptée.", ""},
		{"bid, actor", tb, bid, ana, "You bid 4.", "Vous avez annoncé 4.", ""},
		{"bid, other", tb, bid, dee, "Ana bid 4.", "Ana a annoncé 4.", ""},
		{"replace, actor: neither feather", tb, replace, bob, "You flipped replace: a feather from the pile now stands in front of yours, which no longer counts.", "Vous avez retourné le jeton « remplacer » : une plume de la pile est maintenant posée devant la vôtre, qui ne compte plus.", "6"},
		{"replace, other living seat: both", tb, replace, cal, "Bob flipped replace: the 6 from the pile now stands in front of Bob's 2, which no longer counts.", "Bob a retourné le jeton « remplacer » : la plume 6 de la pile est maintenant posée devant sa plume 2, qui ne compte plus.", ""},
		{"replace, spectator: neither", tb, replace, spec, "Bob flipped replace: a feather from the pile now stands in front of Bob's, which no longer counts.", "Bob a retourné le jeton « remplacer » : une plume de la pile est maintenant posée devant la sienne, qui ne compte plus.", "6"},
		{"skip", tb, skip, ana, "Cal flipped skip and passed the turn without bidding.", "Cal a retourné le jeton « sauter » et a passé son tour sans annoncer.", ""},
		{"reverse, actor", tb, reverse, dee, "You flipped reverse: play goes counter-clockwise for the rest of the round.", "Vous avez retourné le jeton « inverser » : le jeu tourne dans le sens inverse des aiguilles d’une montre jusqu’à la fin de la manche.", ""},
		{"declare right, actor learns her feather", tb, declare, cal, "You declared 3 and were right: the 3 lies face up and is counted, and you are out of the round.", "Vous avez retourné le jeton « deviner » en nommant 3, et c’était juste : la plume 3 est posée face visible et sera comptée, et vous vous retirez de la manche.", ""},
		{"declare right, spectator", tb, declare, spec, "Cal declared 3 and was right: the 3 lies face up and is counted, and Cal is out of the round.", "Cal a retourné le jeton « deviner » en nommant 3, et c’était juste : la plume 3 est posée face visible et sera comptée, et Cal se retire de la manche.", ""},
		{"call, caller", tb, call, bob, "You called \"Coyote!\" against Dee's bid of 6.", "Vous avez dit « Coyote ! » contre l’enchère de 6 annoncée par Dee.", ""},
		{"call, bidder", tb, call, dee, "Bob called \"Coyote!\" against your bid of 6.", "Bob a dit « Coyote ! » contre votre enchère de 6.", ""},
		{"count, public: Ana learns her 20", tb, count, ana, "The count: your 20, Bob's 6, Cal's 3, Dee's 4 and the 5 revealed by you. The total is 38, reaching Dee's bid of 6.", "Décompte : vous (20), Bob (6), Cal (3), Dee (4) et la plume 5 révélée par vous. Le total est de 38, ce qui atteint l’enchère de 6 annoncée par Dee.", "Bob's 2"},
		{"count, spectator", tb, count, spec, "The count: Ana's 20, Bob's 6, Cal's 3, Dee's 4 and the 5 revealed by Ana. The total is 38, reaching Dee's bid of 6.", "Décompte : Ana (20), Bob (6), Cal (3), Dee (4) et la plume 5 révélée par Ana. Le total est de 38, ce qui atteint l’enchère de 6 annoncée par Dee.", ""},
		{"coyote token, taker", tb, take, bob, "You took a coyote token (1 of 3).", "Vous avez pris un jeton coyote (1 sur 3).", ""},
		{"coyote token, other", tb, take, ana, "Bob took a coyote token (1 of 3).", "Bob a pris un jeton coyote (1 sur 3).", ""},
		{"round end, public", tb, end, spec, "Round 1 is over; its feathers (20, 6, 2, 3, 4 and 5) go face up to the discard pile.", "La manche 1 est terminée ; ses plumes (20, 6, 2, 3, 4 et 5) vont face visible sur la défausse.", ""},
		{"next deal, spectator", tb, deal2, spec, "Round 2 began; Dee bids first. Each player wears a feather hidden from you.", "La manche 2 commence ; Dee annonce en premier. Chaque joueur porte une plume que vous ne voyez pas.", ""},
	} {
		t.Run(r.name, r.check)
	}
}

// CY-12e, CY-8, CY-16, CY-10, CY-33, CY-17 in words: a wrong declaration,
// `?` at the count, an elimination, a resignation, the shuffles, the end.
func TestDescribe_Settling(t *testing.T) {
	const ana, bob, cal, dee, spec = 0, 1, 2, 3, games.Spectator

	wrong := rig(t, 3, games.Options{OptVariantTokens: "on"}, "1", "2", "3")
	evs := wrong.play("Ana", "declare 5")
	declare, wrongEnd := evs[0], find(t, evs, EvRoundEnd)

	question := rig(t, 3, nil, "?", "2", "3", "20")
	question.play("Ana", "bid 30")
	evs = question.play("Bob", "coyote")
	turned, qCount := find(t, evs, EvTurn), find(t, evs, EvCount)

	// Dee holds 2 tokens and overbids; Ana's call eliminates her and Ana
	// starts the next round (CY-5), whose deal is hidden from Dee as from a
	// spectator. Night reshuffles everything first (CY-11).
	out := rig(t, 4, nil, "1", "2", "3", "night")
	out.emit(Event{Type: EvCoyote, Coyote: &TakeEvent{Seat: dee, Coyotes: 2}})
	out.play("Ana", "bid 1")
	out.play("Bob", "bid 2")
	out.play("Cal", "bid 3")
	out.play("Dee", "bid 50")
	evs = out.play("Ana", "coyote")
	elim, nightEnd, night, outDeal := find(t, evs, EvCoyote), find(t, evs, EvRoundEnd), find(t, evs, EvShuffle), find(t, evs, EvDeal)

	quit := rig(t, 3, nil, "1", "2", "3")
	resignEvs, err := Rules{}.Resign(quit.s, cal, quit.rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range resignEvs {
		quit.emit(e)
	}
	resign, abandoned := resignEvs[0], find(t, resignEvs, EvRoundEnd)
	resignEvs, err = Rules{}.Resign(quit.s, bob, quit.rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range resignEvs {
		quit.emit(e)
	}
	over := find(t, resignEvs, EvGameOver)

	short := rig(t, 3, nil)
	short.s.Discard, short.s.Pile = short.s.Pile[1:], short.s.Pile[:1]
	short.play("Ana", "bid 1")
	shortShuffle := find(t, short.play("Bob", "coyote"), EvShuffle)

	empty := rig(t, 3, games.Options{OptVariantTokens: "on"}, "5", "3", "2")
	empty.s.Discard, empty.s.Pile = empty.s.Pile, nil
	emptyShuffle := find(t, empty.play("Ana", "reveal"), EvShuffle)

	for _, r := range []describeRow{
		{"wrong declaration, actor", wrong, declare, ana, "You declared 5 but wore the 1; the round ends without a count.", "Vous avez retourné le jeton « deviner » en nommant 5, mais vous portiez la plume 1 ; la manche s’arrête sans décompte.", ""},
		{"wrong declaration, other", wrong, declare, cal, "Ana declared 5 but wore the 1; the round ends without a count.", "Ana a retourné le jeton « deviner » en nommant 5, mais avait en fait la plume 1 ; la manche s’arrête sans décompte.", ""},
		{"round end without a count", wrong, wrongEnd, bob, "Round 1 is over; its feathers (1, 2 and 3) go face up to the discard pile.", "La manche 1 est terminée ; ses plumes (1, 2 et 3) vont face visible sur la défausse.", ""},
		{"? turns a feather", question, turned, cal, "The ? feather turned the 20 over from the pile; it is counted too.", "La plume ? a fait retourner la plume 20 de la pile ; elle est comptée aussi.", ""},
		{"count with ?", question, qCount, ana, "The count: your ?, Bob's 2, Cal's 3 and the 20 turned by ?. The total is 25, under your bid of 30.", "Décompte : vous (?), Bob (2), Cal (3) et la plume 20 retournée par ?. Le total est de 25, en dessous de votre enchère de 30.", ""},
		{"elimination, the eliminated", out, elim, dee, "You took a coyote token (3 of 3) and are out of the game.", "Vous avez pris un jeton coyote (3 sur 3) et quittez la partie.", ""},
		{"elimination, spectator", out, elim, spec, "Dee took a coyote token (3 of 3) and is out of the game.", "Dee a pris un jeton coyote (3 sur 3) et quitte la partie.", ""},
		{"round end with night", out, nightEnd, bob, "Round 1 is over; its feathers were 1, 2, 3 and night, and with night among them all feathers are reshuffled.", "La manche 1 est terminée ; ses plumes étaient 1, 2, 3 et nuit, et comme la nuit en faisait partie, toutes les plumes sont remélangées.", ""},
		{"night shuffle", out, night, ana, "Night was among the round's feathers: all 30 feathers were shuffled into a new pile.", "La plume nuit faisait partie des plumes de la manche : les 30 plumes ont toutes été remélangées pour former une nouvelle pile.", ""},
		{"deal, a living seat", out, outDeal, cal, "Round 2 began; Ana bids first. You see Ana's -10 and Bob's 5; your own feather is hidden from you.", "La manche 2 commence ; Ana annonce en premier. Vous voyez ces plumes : Ana (-10) et Bob (5) ; la vôtre vous est cachée.", ""},
		{"deal, the eliminated sees none", out, outDeal, dee, "Round 2 began; Ana bids first. Each player wears a feather hidden from you.", "La manche 2 commence ; Ana annonce en premier. Chaque joueur porte une plume que vous ne voyez pas.", ""},
		{"resign, actor", quit, resign, cal, "You resigned and are out of the game.", "Vous avez abandonné et quittez la partie.", ""},
		{"resign, other", quit, resign, ana, "Cal resigned and is out of the game.", "Cal a abandonné et quitte la partie.", ""},
		{"abandoned round", quit, abandoned, spec, "Round 1 was abandoned without a count; its feathers (1, 2 and 3) go face up to the discard pile.", "La manche 1 a été abandonnée sans décompte ; ses plumes (1, 2 et 3) vont face visible sur la défausse.", ""},
		{"game over, winner", quit, over, ana, "You won the game.", "Vous avez gagné la partie : vous voilà Chef de Tribu !", ""},
		{"game over, spectator", quit, over, spec, "Ana won the game.", "Ana a gagné la partie et devient Chef de Tribu !", ""},
		{"short pile shuffle", short, shortShuffle, bob, "The pile was too short for the deal: the pile and the discard were shuffled into a new pile of 30 feathers.", "La pile ne suffisait pas pour la donne : la pile et la défausse ont été mélangées pour former une nouvelle pile de 30 plumes.", ""},
		{"empty pile shuffle", empty, emptyShuffle, ana, "The pile was empty: the discard was shuffled into a new pile of 27 feathers.", "La pile était vide : la défausse a été mélangée pour former une nouvelle pile de 27 plumes.", ""},
	} {
		t.Run(r.name, r.check)
	}
}

// Section 5: a resigned seat, like an eliminated one, sees the next deal as
// a spectator does: Redact takes it from the state, and so does Describe.
func TestRedact_ResignedSeesNoFeather_Section5_CY33(t *testing.T) {
	tb := rig(t, 4, nil, "1", "2", "3", "4")
	evs, err := Rules{}.Resign(tb.s, 1, tb.rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		tb.emit(e)
	}
	deal := find(t, evs, EvDeal)
	s := tb.before(deal)
	for seat := games.Spectator; seat < 4; seat++ {
		sees := seat >= 0 && seat != 1
		for _, w := range (Rules{}).Redact(s, deal, seat).Deal.Worn {
			if (w.Feather != nil) != (sees && w.Seat != seat) {
				t.Errorf("seat %d's copy of the deal, seat %d: %+v", seat, w.Seat, w.Feather)
			}
		}
	}
	// Given a state in which a seat dealt in is out (it resigned at once),
	// that seat's copy shows no feather either.
	after := tb.s.clone()
	after.Out[2] = true
	for _, w := range (Rules{}).Redact(after, deal, 2).Deal.Worn {
		if w.Feather != nil {
			t.Fatalf("an eliminated seat's copy shows %+v", w)
		}
	}
	d := Rules{}.Describe(after, deal, 2)
	if en := d.In(games.English); !strings.HasSuffix(en, "Each player wears a feather hidden from you.") {
		t.Fatalf("an eliminated seat is told %q", en)
	}
	if fr := d.In("fr"); !strings.HasSuffix(fr, "Chaque joueur porte une plume que vous ne voyez pas.") {
		t.Fatalf("an eliminated seat is told %q", fr)
	}
}

// CY-8 in words: the notes of the count (max0 discards, -max makes
// negative, x2 doubles) on worn and revealed feathers, said in each
// language.
func TestDescribe_CountNotes_CY8(t *testing.T) {
	const ana, spec = 0, games.Spectator
	discard := rig(t, 3, games.Options{OptVariantTokens: "on"}, "max0", "2", "3", "20")
	discard.play("Ana", "reveal")
	discard.play("Ana", "bid 1")
	discarded := find(t, discard.play("Bob", "coyote"), EvCount)

	negative := rig(t, 3, nil, "-max", "4", "9")
	negative.play("Ana", "bid 9")
	negated := find(t, negative.play("Bob", "coyote"), EvCount)

	double := rig(t, 3, nil, "x2", "5", "3")
	double.play("Ana", "bid 17")
	doubled := find(t, double.play("Bob", "coyote"), EvCount)

	for _, r := range []describeRow{
		{"max0 takes the revealed 20, the revealer", discard, discarded, ana,
			"The count: your max→0 (discarded by max0), Bob's 2, Cal's 3 and the 20 revealed by you (discarded by max0). The total is 5, reaching your bid of 1.",
			"Décompte : vous (max→0, jetée avec max→0), Bob (2), Cal (3) et la plume 20 révélée par vous (jetée avec max→0). Le total est de 5, ce qui atteint votre enchère de 1.", ""},
		{"max0 takes the revealed 20, spectator", discard, discarded, spec,
			"The count: Ana's max→0 (discarded by max0), Bob's 2, Cal's 3 and the 20 revealed by Ana (discarded by max0). The total is 5, reaching Ana's bid of 1.",
			"Décompte : Ana (max→0, jetée avec max→0), Bob (2), Cal (3) et la plume 20 révélée par Ana (jetée avec max→0). Le total est de 5, ce qui atteint l’enchère de 1 annoncée par Ana.", ""},
		{"-max, the bidder", negative, negated, ana,
			"The count: your -max, Bob's 4 and Cal's 9 (negative by -max). The total is -5, under your bid of 9.",
			"Décompte : vous (-max), Bob (4) et Cal (9, rendue négative par -max). Le total est de -5, en dessous de votre enchère de 9.", ""},
		{"x2, spectator", double, doubled, spec,
			"The count: Ana's ×2, Bob's 5 and Cal's 3. The total is 16 with the green feathers doubled by x2, under Ana's bid of 17.",
			"Décompte : Ana (×2), Bob (5) et Cal (3). Le total est de 16 (plumes vertes doublées par ×2), en dessous de l’enchère de 17 annoncée par Ana.", ""},
	} {
		t.Run(r.name, r.check)
	}
}
