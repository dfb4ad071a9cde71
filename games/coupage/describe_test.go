package coupage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// spec is the spectator in the tables below.
const spec = games.Spectator

// Describe says what each event did as the actor, another seat and the
// spectator know it: a drawn, stolen or face-down card is named only for the
// seats that may see it (section 5); the description of the redacted event
// is the same.
func TestDescribe(t *testing.T) {
	cases := []struct {
		name  string
		steps func(t *testing.T) []step
		typ   string
		want  map[games.Seat]string
		fr    map[games.Seat]string
	}{
		{"draw from the deck", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}, top: []string{"xar1"}}.build(t)
			return tb.play(ana, "draw")
		}, evDrew, map[games.Seat]string{
			ana:  "You drew Xarel·lo ★ from the deck.",
			bob:  "Ana drew a card from the deck.",
			spec: "Ana drew a card from the deck.",
		}, map[games.Seat]string{
			ana:  "Vous avez pioché Xarel·lo ★ dans la pioche.",
			bob:  "Ana a pioché une carte dans la pioche.",
			spec: "Ana a pioché une carte dans la pioche.",
		}},
		{"draw from the market", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}, top: []string{"xar1"}}.build(t)
			return tb.play(ana, "draw market 2")
		}, evTook, map[games.Seat]string{
			ana:  "You took Parellada ★★★ from market slot 2.",
			bob:  "Ana took Parellada ★★★ from market slot 2.",
			spec: "Ana took Parellada ★★★ from market slot 2.",
		}, map[games.Seat]string{
			ana:  "Vous avez pris Parellada ★★★ à l’emplacement 2 du marché.",
			bob:  "Ana a pris Parellada ★★★ à l’emplacement 2 du marché.",
			spec: "Ana a pris Parellada ★★★ à l’emplacement 2 du marché.",
		}},
		{"market refilled", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}, top: []string{"xar1"}}.build(t)
			return tb.play(ana, "draw market 2")
		}, evMarket, map[games.Seat]string{
			ana:  "Market slot 2 now shows Xarel·lo ★.",
			spec: "Market slot 2 now shows Xarel·lo ★.",
		}, map[games.Seat]string{
			ana:  "L’emplacement 2 du marché montre maintenant Xarel·lo ★.",
			spec: "L’emplacement 2 du marché montre maintenant Xarel·lo ★.",
		}},
		{"end-of-turn refill (one event per card)", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}, top: []string{"xar1", "xar2", "time"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "end")
		}, evDrew, map[games.Seat]string{
			ana:  "You drew Xarel·lo ★★ at the end of the turn.",
			cleo: "Ana drew a card at the end of the turn.",
			spec: "Ana drew a card at the end of the turn.",
		}, map[games.Seat]string{
			ana:  "Vous avez pioché Xarel·lo ★★ en fin de tour.",
			cleo: "Ana a pioché une carte en fin de tour.",
			spec: "Ana a pioché une carte en fin de tour.",
		}},
		{"make", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"gar2", "tre1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "make rouge 1 gar2 tre1")
		}, evMade, map[games.Seat]string{
			ana: "You started a Rouge on your barrel 1 with Garnatxa ★★ and Trepat ★.",
			bob: "Ana started a Rouge on barrel 1 with Garnatxa ★★ and Trepat ★.",
		}, map[games.Seat]string{
			ana: "Vous avez lancé un Rouge sur votre tonneau 1 avec Garnatxa ★★ et Trepat ★.",
			bob: "Ana a lancé un Rouge sur son tonneau 1 avec Garnatxa ★★ et Trepat ★.",
		}},
		{"Time card", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"time"}, barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar2", "tre1"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "time 1")
		}, evAged, map[games.Seat]string{
			ana:  "You added a Time card to your barrel 1.",
			spec: "Ana added a Time card to barrel 1.",
		}, map[games.Seat]string{
			ana:  "Vous avez ajouté une carte Temps à votre tonneau 1.",
			spec: "Ana a ajouté une carte Temps à son tonneau 1.",
		}},
		{"Time from stars: the face-down card is Ana's", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"mac2", "par1"}, barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar2", "tre1"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "time 1 mac2 par1")
		}, evAged, map[games.Seat]string{
			ana:  "You put Macabeu ★★ face down under your barrel 1 as Time and discarded Parellada ★.",
			bob:  "Ana put a grape card face down under barrel 1 as Time and discarded Parellada ★.",
			spec: "Ana put a grape card face down under barrel 1 as Time and discarded Parellada ★.",
		}, map[games.Seat]string{
			ana:  "Vous avez posé Macabeu ★★ face cachée sous votre tonneau 1 comme carte Temps et défaussé Parellada ★.",
			bob:  "Ana a posé une carte Cépage face cachée sous son tonneau 1 comme carte Temps et défaussé Parellada ★.",
			spec: "Ana a posé une carte Cépage face cachée sous son tonneau 1 comme carte Temps et défaussé Parellada ★.",
		}},
		{"Vol de carte: thief and victim see the card", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"vol de carte"}}, {hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "vol de carte bob")
		}, evStole, map[games.Seat]string{
			ana:  "You took Macabeu ★ at random from Bob's hand.",
			bob:  "Ana took Macabeu ★ at random from your hand.",
			cleo: "Ana took a card at random from Bob's hand.",
			spec: "Ana took a card at random from Bob's hand.",
		}, map[games.Seat]string{
			ana:  "Vous avez pris Macabeu ★ au hasard dans la main de Bob.",
			bob:  "Ana a pris Macabeu ★ au hasard dans votre main.",
			cleo: "Ana a pris une carte au hasard dans la main de Bob.",
			spec: "Ana a pris une carte au hasard dans la main de Bob.",
		}},
		{"a special is played", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"vol de carte"}}, {hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "vol de carte bob")
		}, evPlayed, map[games.Seat]string{
			ana: "You played Vol de carte.",
			bob: "Ana played Vol de carte.",
		}, map[games.Seat]string{
			ana: "Vous avez joué Vol de carte.",
			bob: "Ana a joué Vol de carte.",
		}},
		{"the played special's discard is not told twice", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"vol de carte"}}, {hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "vol de carte bob")
		}, evDiscarded, map[games.Seat]string{ana: "", bob: "", spec: ""}, map[games.Seat]string{ana: "", bob: "", spec: ""}},
		{"Évaporation", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{barrels: map[int]barrelSetup{2: {wine: "rose", grapes: []string{"gar1", "mac2"}}}}, {hand: []string{"evaporation"}}},
				market: [2]string{"ull3", "par3"}, active: bob}.build(t)
			tb.do(bob, "draw")
			return tb.play(bob, "evaporation ana 2 mac2")
		}, evEvaporated, map[games.Seat]string{
			bob:  "You evaporated Macabeu ★★ from Ana's barrel 2.",
			ana:  "Bob evaporated Macabeu ★★ from your barrel 2.",
			cleo: "Bob evaporated Macabeu ★★ from Ana's barrel 2.",
		}, map[games.Seat]string{
			ana:  "Bob a fait s’évaporer Macabeu ★★ de votre tonneau 2.",
			bob:  "Vous avez fait s’évaporer Macabeu ★★ du tonneau 2 d’Ana.",
			cleo: "Bob a fait s’évaporer Macabeu ★★ du tonneau 2 d’Ana.",
		}},
		{"Vin piqué", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{barrels: map[int]barrelSetup{2: {wine: "blanc", grapes: []string{"mac1", "par1"}}}}, {hand: []string{"vin pique"}}},
				market: [2]string{"ull3", "par3"}, active: bob}.build(t)
			tb.do(bob, "draw")
			return tb.play(bob, "vin pique ana 2")
		}, evSpoiled, map[games.Seat]string{
			bob: "You put a Vin piqué on Ana's barrel 2.",
			ana: "Bob put a Vin piqué on your barrel 2.",
		}, map[games.Seat]string{
			ana: "Bob a posé un Vin piqué sur votre tonneau 2.",
			bob: "Vous avez posé un Vin piqué sur le tonneau 2 d’Ana.",
		}},
		{"Vin piqué counter", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{barrels: map[int]barrelSetup{2: {wine: "blanc", grapes: []string{"mac1", "par1"}, spoil: 1}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			return tb.play(ana, "end")
		}, evSpoilMoved, map[games.Seat]string{
			ana: "The Vin piqué on your barrel 2 turned to 2.",
			bob: "The Vin piqué on Ana's barrel 2 turned to 2.",
		}, map[games.Seat]string{
			ana: "Le Vin piqué posé sur votre tonneau 2 est passé à 2.",
			bob: "Le Vin piqué posé sur le tonneau 2 d’Ana est passé à 2.",
		}},
		{"Vin piqué wears off", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{barrels: map[int]barrelSetup{2: {wine: "blanc", grapes: []string{"mac1", "par1"}, spoil: 4}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			return tb.play(ana, "end")
		}, evSpoilGone, map[games.Seat]string{
			bob: "The Vin piqué on Ana's barrel 2 wore off and was discarded.",
		}, map[games.Seat]string{
			bob: "Le Vin piqué posé sur le tonneau 2 d’Ana a fait son temps et a été défaussé.",
		}},
		{"Œnologue", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"oenologue"}}, {barrels: map[int]barrelSetup{1: {wine: "blanc", grapes: []string{"mac1", "par1"}, spoil: 2}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "oenologue bob 1")
		}, evSpoilGone, map[games.Seat]string{
			ana: "You removed the Vin piqué from Bob's barrel 1 (Œnologue).",
			bob: "Ana removed the Vin piqué from your barrel 1 (Œnologue).",
		}, map[games.Seat]string{
			ana: "Vous avez retiré le Vin piqué du tonneau 1 de Bob (Œnologue).",
			bob: "Ana a retiré le Vin piqué de votre tonneau 1 (Œnologue).",
		}},
		{"Vol de temps: the face-down card stays unseen", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{
				{barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar1", "tre1"}, time: []string{"mac3"}}}},
				{hand: []string{"vol de temps"}, barrels: map[int]barrelSetup{1: {wine: "blanc", grapes: []string{"xar1", "par2"}}}},
			}, market: [2]string{"ull3", "par3"}, active: bob}.build(t)
			tb.do(bob, "draw")
			return tb.play(bob, "vol de temps ana 1 facedown 1")
		}, evTimeStolen, map[games.Seat]string{
			bob:  "You moved a face-down card counting as Time from Ana's barrel 1 to your barrel 1.",
			ana:  "Bob moved a face-down card counting as Time from your barrel 1 to Bob's barrel 1.",
			spec: "Bob moved a face-down card counting as Time from Ana's barrel 1 to Bob's barrel 1.",
		}, map[games.Seat]string{
			ana:  "Bob a déplacé une carte face cachée comptant comme Temps de votre tonneau 1 vers le tonneau 1 de Bob.",
			bob:  "Vous avez déplacé une carte face cachée comptant comme Temps du tonneau 1 d’Ana vers votre tonneau 1.",
			spec: "Bob a déplacé une carte face cachée comptant comme Temps du tonneau 1 d’Ana vers le tonneau 1 de Bob.",
		}},
		{"repair", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"par1"}, barrels: map[int]barrelSetup{2: {wine: "rose", grapes: []string{"gar1"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "repair 2 par1")
		}, evRepaired, map[games.Seat]string{
			ana: "You repaired your barrel 2 with Parellada ★.",
			bob: "Ana repaired barrel 2 with Parellada ★.",
		}, map[games.Seat]string{
			ana: "Vous avez réparé votre tonneau 2 avec Parellada ★.",
			bob: "Ana a réparé son tonneau 2 avec Parellada ★.",
		}},
		{"bottle, first cava, extra turn", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"gar3"}, barrels: map[int]barrelSetup{
				1: {wine: "cava rose", grapes: []string{"mac1", "par1", "gar1"}, time: []string{"time", "time"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "bottle 1 gar3")
		}, evBottled, map[games.Seat]string{
			ana: "You bottled the Cava rosé of your barrel 1, paying Garnatxa ★★★, and took a Cava card for it. You will play an extra turn (Cava rosé).",
			bob: "Ana bottled the Cava rosé of barrel 1, paying Garnatxa ★★★, and took a Cava card for it. Ana will play an extra turn (Cava rosé).",
		}, map[games.Seat]string{
			ana: "Vous avez mis en bouteille le Cava rosé de votre tonneau 1 en payant Garnatxa ★★★, et une carte Cava y a été posée. Vous jouerez un tour supplémentaire (Cava rosé).",
			bob: "Ana a mis en bouteille le Cava rosé de son tonneau 1 en payant Garnatxa ★★★, et une carte Cava y a été posée. Ana jouera un tour supplémentaire (Cava rosé).",
		}},
		{"a bottled barrel is cleared", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"gar3"}, barrels: map[int]barrelSetup{
				1: {wine: "cava rose", grapes: []string{"mac1", "par1", "gar1"}, time: []string{"time", "time", "xar3"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "bottle 1 gar3")
		}, evCleared, map[games.Seat]string{
			bob: "The contents of Ana's barrel 1 went to the discard pile: Macabeu ★, Parellada ★, Garnatxa ★, 2 Time cards and Xarel·lo ★★★.",
		}, map[games.Seat]string{
			bob: "Le contenu du tonneau 1 d’Ana a été défaussé : Macabeu ★, Parellada ★, Garnatxa ★, 2 cartes Temps et Xarel·lo ★★★.",
		}},
		{"the extra turn", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"gar3"}, barrels: map[int]barrelSetup{
				1: {wine: "cava rose", grapes: []string{"mac1", "par1", "gar1"}, time: []string{"time", "time"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			tb.do(ana, "bottle 1 gar3")
			return tb.play(ana, "end")
		}, evTurnStarted, map[games.Seat]string{
			ana: "You took an extra turn (Cava rosé).",
			bob: "Ana took an extra turn (Cava rosé).",
		}, map[games.Seat]string{
			ana: "Vous jouez un tour supplémentaire (Cava rosé).",
			bob: "Ana joue un tour supplémentaire (Cava rosé).",
		}},
		{"next turn", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}}.build(t)
			return tb.play(ana, "end")
		}, evTurnStarted, map[games.Seat]string{
			ana:  "It is Bob's turn.",
			bob:  "It is your turn.",
			spec: "It is Bob's turn.",
		}, map[games.Seat]string{
			ana:  "C’est au tour de Bob.",
			bob:  "C’est à vous de jouer.",
			spec: "C’est au tour de Bob.",
		}},
		{"turn ended is bookkeeping", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}}.build(t)
			return tb.play(ana, "end")
		}, evTurnEnded, map[games.Seat]string{ana: "", spec: ""}, map[games.Seat]string{ana: "", spec: ""}},
		{"Rouge ability waits", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"ull2", "vin pique"}, barrels: map[int]barrelSetup{
				2: {wine: "blanc", grapes: []string{"mac2", "par2"}},
				3: {wine: "rouge", grapes: []string{"gar1", "tre2"}, time: []string{"time", "time"}}}}},
				market: [2]string{"ull3", "par1"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "bottle 3 ull2")
		}, evAbility, map[games.Seat]string{
			ana: "You may now use the Rouge ability.",
			bob: "Ana may now use the Rouge ability.",
		}, map[games.Seat]string{
			ana: "Vous pouvez maintenant utiliser la capacité du Rouge.",
			bob: "Ana peut maintenant utiliser la capacité du Rouge.",
		}},
		{"Rouge ability: the face-down card is Ana's", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"ull2", "vin pique"}, barrels: map[int]barrelSetup{
				2: {wine: "blanc", grapes: []string{"mac2", "par2"}},
				3: {wine: "rouge", grapes: []string{"gar1", "tre2"}, time: []string{"time", "time"}}}}},
				market: [2]string{"ull3", "par1"}}.build(t)
			tb.do(ana, "draw")
			tb.do(ana, "bottle 3 ull2")
			return tb.play(ana, "age 2 vin pique")
		}, evAged, map[games.Seat]string{
			ana:  "You put Vin piqué face down under your barrel 2 as Time (Rouge ability).",
			bob:  "Ana put a card from their hand face down under barrel 2 as Time (Rouge ability).",
			spec: "Ana put a card from their hand face down under barrel 2 as Time (Rouge ability).",
		}, map[games.Seat]string{
			ana:  "Vous avez posé Vin piqué face cachée sous votre tonneau 2 comme carte Temps (capacité du Rouge).",
			bob:  "Ana a posé une carte de sa main face cachée sous son tonneau 2 comme carte Temps (capacité du Rouge).",
			spec: "Ana a posé une carte de sa main face cachée sous son tonneau 2 comme carte Temps (capacité du Rouge).",
		}},
		{"Rosé ability declined", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"mac2"}, barrels: map[int]barrelSetup{
				1: {wine: "rose", grapes: []string{"gar1", "mac1"}, time: []string{"time"}}}}},
				market: [2]string{"ull3", "par1"}}.build(t)
			tb.do(ana, "draw")
			tb.do(ana, "bottle 1 mac2")
			return tb.play(ana, "take nothing")
		}, evDeclined, map[games.Seat]string{
			ana:  "You declined the Rosé ability.",
			cleo: "Ana declined the Rosé ability.",
		}, map[games.Seat]string{
			ana:  "Vous avez renoncé à la capacité du Rosé.",
			cleo: "Ana a renoncé à la capacité du Rosé.",
		}},
		{"Cava blanc: the face-down card reaches Ana's hand unseen", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"gar3"}, barrels: map[int]barrelSetup{
				4: {wine: "cava blanc", grapes: []string{"mac1", "xar2", "par3"}, time: []string{"time", "tre1"}}}}},
				market: [2]string{"ull3", "par1"}}.build(t)
			tb.do(ana, "draw")
			tb.do(ana, "bottle 4 gar3")
			return tb.play(ana, "recover facedown xar2")
		}, evRecovered, map[games.Seat]string{
			ana:  "You took Trepat ★ and Xarel·lo ★★ back into your hand from the bottled Cava blanc of your barrel 4 (Cava blanc ability).",
			bob:  "Ana took a face-down card and Xarel·lo ★★ back into their hand from the bottled Cava blanc of barrel 4 (Cava blanc ability).",
			spec: "Ana took a face-down card and Xarel·lo ★★ back into their hand from the bottled Cava blanc of barrel 4 (Cava blanc ability).",
		}, map[games.Seat]string{
			ana:  "Vous avez récupéré dans votre main Trepat ★ et Xarel·lo ★★ du Cava blanc mis en bouteille sur votre tonneau 4 (capacité du Cava blanc).",
			bob:  "Ana a récupéré dans sa main une carte face cachée et Xarel·lo ★★ du Cava blanc mis en bouteille sur son tonneau 4 (capacité du Cava blanc).",
			spec: "Ana a récupéré dans sa main une carte face cachée et Xarel·lo ★★ du Cava blanc mis en bouteille sur son tonneau 4 (capacité du Cava blanc).",
		}},
		{"discard and draw", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}, top: []string{"xar1", "gar3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "discard mac1")
		}, evDiscarded, map[games.Seat]string{
			ana: "You discarded Macabeu ★.",
			bob: "Ana discarded Macabeu ★.",
		}, map[games.Seat]string{
			ana: "Vous avez défaussé Macabeu ★.",
			bob: "Ana a défaussé Macabeu ★.",
		}},
		{"the card drawn after a discard", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}, top: []string{"xar1", "gar3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "discard mac1")
		}, evDrew, map[games.Seat]string{
			ana: "You drew Garnatxa ★★★.",
			bob: "Ana drew a card.",
		}, map[games.Seat]string{
			ana: "Vous avez pioché Garnatxa ★★★.",
			bob: "Ana a pioché une carte.",
		}},
		{"reshuffle", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par1"}, restToDiscard: true}.build(t)
			return tb.play(ana, "draw")
		}, evShuffled, map[games.Seat]string{
			ana:  "The discard pile was shuffled into a new deck of 77 cards.",
			spec: "The discard pile was shuffled into a new deck of 77 cards.",
		}, map[games.Seat]string{
			ana:  "La défausse a été mélangée pour former une nouvelle pioche de 77 cartes.",
			spec: "La défausse a été mélangée pour former une nouvelle pioche de 77 cartes.",
		}},
		{"Récolte revealed", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{}, {hand: []string{"recolte"}}}, market: [2]string{"ull2", "par3"},
				top: []string{"xar1", "time", "mac3", "vin pique"}, active: bob}.build(t)
			tb.do(bob, "draw")
			return tb.play(bob, "recolte")
		}, evRevealed, map[games.Seat]string{
			ana:  "The Récolte revealed a Time card, Macabeu ★★★ and Vin piqué.",
			spec: "The Récolte revealed a Time card, Macabeu ★★★ and Vin piqué.",
		}, map[games.Seat]string{
			ana:  "La Récolte a révélé une carte Temps, Macabeu ★★★ et Vin piqué.",
			spec: "La Récolte a révélé une carte Temps, Macabeu ★★★ et Vin piqué.",
		}},
		{"Récolte pick", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{}, {hand: []string{"recolte"}}}, market: [2]string{"ull2", "par3"},
				top: []string{"xar1", "time", "mac3", "vin pique"}, active: bob}.build(t)
			tb.do(bob, "draw")
			tb.do(bob, "recolte")
			return tb.play(bob, "pick mac3")
		}, evPicked, map[games.Seat]string{
			bob: "You picked Macabeu ★★★ from the Récolte.",
			ana: "Bob picked Macabeu ★★★ from the Récolte.",
		}, map[games.Seat]string{
			ana: "Bob a choisi Macabeu ★★★ dans la Récolte.",
			bob: "Vous avez choisi Macabeu ★★★ dans la Récolte.",
		}},
		{"a win", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"vin jeune"}, barrels: map[int]barrelSetup{
				1: {wine: "blanc", grapes: []string{"mac1", "par1"}, time: []string{"time"}, bottled: true},
				3: {wine: "cava rose", grapes: []string{"mac2", "par2", "gar2"}, time: []string{"time", "time"}},
				4: {wine: "rouge", grapes: []string{"gar3", "tre3"}, time: []string{"time", "time"}, bottled: true}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "vin jeune 3")
		}, evGameOver, map[games.Seat]string{
			ana:  "The game is over: you win with 2 wines and 1 cava bottled.",
			bob:  "The game is over: Ana wins with 2 wines and 1 cava bottled.",
			spec: "The game is over: Ana wins with 2 wines and 1 cava bottled.",
		}, map[games.Seat]string{
			ana:  "La partie est terminée : vous gagnez avec 2 vins et 1 cava mis en bouteille.",
			bob:  "La partie est terminée : Ana gagne avec 2 vins et 1 cava mis en bouteille.",
			spec: "La partie est terminée : Ana gagne avec 2 vins et 1 cava mis en bouteille.",
		}},
		{"Vin jeune bottles without stars", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"vin jeune"}, barrels: map[int]barrelSetup{
				3: {wine: "blanc", grapes: []string{"mac2", "par2"}, time: []string{"time"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "vin jeune 3")
		}, evBottled, map[games.Seat]string{
			ana: "You bottled the Blanc of your barrel 3 without paying stars (Vin jeune).",
			bob: "Ana bottled the Blanc of barrel 3 without paying stars (Vin jeune).",
		}, map[games.Seat]string{
			ana: "Vous avez mis en bouteille le Blanc de votre tonneau 3 sans payer d’étoiles (Vin jeune).",
			bob: "Ana a mis en bouteille le Blanc de son tonneau 3 sans payer d’étoiles (Vin jeune).",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := first(t, c.steps(t), c.typ)
			r := NewRules()
			for lang, wants := range map[string]map[games.Seat]string{"en": c.want, "fr": c.fr} {
				for seat, want := range wants {
					if got := said(r, st.before, st.e, seat, lang); got != want {
						t.Errorf("seat %d in %s: %q, want %q", seat, lang, got, want)
					}
					if got := said(r, st.before, r.Redact(st.before, st.e, seat), seat, lang); got != want {
						t.Errorf("seat %d in %s, redacted event: %q, want %q", seat, lang, got, want)
					}
				}
			}
		})
	}
}

// Describe of the setup: the seating and each seat's deal, its own cards
// named for that seat only.
func TestDescribeSetup(t *testing.T) {
	r := NewRules()
	evs, err := r.Setup(games.Options{"wine_abilities": "off"}, []string{"Ana", "Bob"}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	p := evs[0].Players
	for _, c := range []struct {
		lang, seated, shuffled, ownDeal, dealt string
	}{
		{"en", "The game began with " + p[0] + " (you) and " + p[1] + ", in this order of play; wine abilities are off.",
			"The deck of 79 cards was shuffled.", "You were dealt %s.", p[0] + " was dealt 5 cards."},
		{"fr", "La partie a commencé avec " + p[0] + " (vous) et " + p[1] + ", dans cet ordre de jeu ; les capacités des vins ne sont pas utilisées.",
			"La pioche de 79 cartes a été mélangée.", "Vous avez reçu %s.", p[0] + " a reçu 5 cartes."},
	} {
		s := r.Initial(rulesCurrent)
		got := map[string]string{}
		for _, e := range evs {
			for _, seat := range []games.Seat{0, 1, spec} {
				d := said(r, s, e, seat, c.lang)
				switch {
				case e.Type == evSeated && seat == 0:
					got["seated/0"] = d
				case e.Type == evShuffled && seat == spec:
					got["shuffled"] = d
				case e.Type == evDrew && e.Seat == 0 && seat == 0:
					if want := fmt.Sprintf(c.ownDeal, words.In(c.lang).Must(teller{s: s}.cards(e.Cards))); d != want {
						t.Errorf("own deal in %s %q, want %q", c.lang, d, want)
					}
				case e.Type == evDrew && e.Seat == 0 && seat != 0:
					if d != c.dealt {
						t.Errorf("seat %d: deal in %s %q, want %q", seat, c.lang, d, c.dealt)
					}
				}
			}
			s = r.Evolve(s, e)
		}
		if got["seated/0"] != c.seated {
			t.Errorf("seated in %s %q, want %q", c.lang, got["seated/0"], c.seated)
		}
		if got["shuffled"] != c.shuffled {
			t.Errorf("shuffled in %s %q, want %q", c.lang, got["shuffled"], c.shuffled)
		}
	}
}

// Describe of a resignation and of the win it gives (CP-42), and the
// result it gives.
func TestDescribeResign(t *testing.T) {
	tb := tableSetup{players: []string{"Ana", "Bob"}, seats: []seatSetup{{}, {hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
	evs, err := tb.r.Resign(tb.s, bob, tb.rng)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, e := range evs {
		for _, lang := range games.Languages() {
			got[lang] = append(got[lang], said(tb.r, tb.s, e, ana, lang), said(tb.r, tb.s, e, bob, lang))
		}
		tb.fold(e)
	}
	want := map[string][]string{
		"en": {"Bob left the game; Bob's cards went to the discard pile: Macabeu ★.", "You left the game; your cards went to the discard pile: Macabeu ★.",
			"The game is over: you win as every other player left the game.", "The game is over: Ana wins as every other player left the game."},
		"fr": {"Bob a quitté la partie ; ses cartes ont été défaussées : Macabeu ★.", "Vous avez quitté la partie ; vos cartes ont été défaussées : Macabeu ★.",
			"La partie est terminée : vous gagnez, car tous les autres joueurs ont quitté la partie.", "La partie est terminée : Ana gagne, car tous les autres joueurs ont quitté la partie."},
	}
	for lang, w := range want {
		if !slices.Equal(got[lang], w) {
			t.Errorf("descriptions in %s %q, want %q", lang, got[lang], w)
		}
	}
	res := tb.r.Result(tb.s)
	for lang, w := range map[string]string{"en": "Ana wins: every other player left the game", "fr": "Ana gagne : tous les autres joueurs ont quitté la partie"} {
		if sum := res.Summary.In(lang); sum != w {
			t.Errorf("summary in %s %q, want %q", lang, sum, w)
		}
	}
}

// Redact with the state: a player who left sees as a spectator (CP-42).
func TestRedactResignedSeat(t *testing.T) {
	tb := tableSetup{market: [2]string{"ull3", "par3"}}.build(t)
	drew := Event{Type: evDrew, Seat: bob, Cards: []string{"mac1"}, N: 1, Reason: "action"}
	if x := tb.r.Redact(tb.s, drew, bob); len(x.Cards) != 1 {
		t.Fatalf("Bob does not see his own draw: %+v", x)
	}
	tb.s.Resigned[bob] = true
	if x := tb.r.Redact(tb.s, drew, bob); x.Cards != nil {
		t.Errorf("Bob left the game but still sees private cards: %+v", x)
	}
	for lang, want := range map[string]string{"en": "You drew a card.", "fr": "Vous avez pioché une carte."} {
		if d := said(tb.r, tb.s, drew, bob, lang); d != want {
			t.Errorf("description in %s for Bob after leaving: %q, want %q", lang, d, want)
		}
	}
}

// said is what Describe says of e (which applies to s) to seat, in lang.
func said(r Rules, s *State, e Event, seat games.Seat, lang string) string {
	return r.Describe(s, e, seat).In(lang)
}
