package web

import (
	"math"
	"net/http"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
)

// playerPage is a player's card: the name they last played under, their
// reliability over the last 12 months and their rating for each game.
type playerPage struct {
	Layout
	Name string
	// Met is the percentage of deadlines met, in words ("" while nothing
	// was due).
	Met                                    string
	Finished, Decisions, Missed, Abandoned int
	Ratings                                []ratingRow
}

// ratingRow is a player's rating for one game.
type ratingRow struct {
	Game             string
	Rating, RD       int
	Games            int
	GameID, RulesURL string
}

// playerPage shows the card of the player in the path.
func (h *Handler) playerPage(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	card, err := h.cfg.Play.Player(r.Context(), r.PathValue("id"))
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	v := visitOf(r)
	page := playerPage{Layout: h.layout(r, v.say("player.title", card.Name)), Name: card.Name}
	rel := card.Reliability
	page.Finished, page.Decisions, page.Missed, page.Abandoned = rel.Finished, rel.Decisions, rel.Missed, rel.Abandoned
	if rel.Met != nil {
		page.Met = v.say("player.met_value", *rel.Met)
	}
	for _, rt := range card.Ratings {
		page.Ratings = append(page.Ratings, ratingRow{
			Game: h.gameName(rt.Kind), GameID: rt.Kind, RulesURL: rulesURL(rt.Kind, v.Lang, ""),
			Rating: int(math.Round(rt.Rating.Rating)), RD: int(math.Round(rt.Deviation)), Games: rt.Games,
		})
	}
	h.render(w, r, http.StatusOK, "player", page)
}

// lobbyRow is an open game of the lobby, each player named with their
// rating for the game ("Ana (1520)", "Bob (new)").
func (h *Handler) lobbyRow(v visit, g play.LobbyGame) gameRow {
	row := h.row(v, g.Game, games.Spectator)
	names := make([]string, len(g.Players))
	for i, p := range g.Players {
		if i < len(g.Ratings) && g.Ratings[i] != nil {
			names[i] = v.say("lobby.rated", p.Name, int(math.Round(g.Ratings[i].Rating.Rating)))
		} else {
			names[i] = v.say("lobby.unrated", p.Name)
		}
	}
	row.Players = v.list(names)
	return row
}

// terms are what an open game asks of a joining player, and whether it is
// rated, in the visit's words.
func terms(v visit, b play.Brief) []string {
	var out []string
	if r := b.Requires; r != nil {
		if r.MinReliability > 0 {
			out = append(out, v.say("game.requires_reliability", r.MinReliability))
		}
		if r.MinFinished > 0 {
			out = append(out, v.say("game.requires_finished", r.MinFinished))
		}
	}
	if b.Unrated {
		out = append(out, v.say("game.unrated"))
	}
	return out
}
