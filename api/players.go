package api

import (
	"context"
	"math"

	"github.com/courrier-games/courrier/play"
)

// GetPlayer is a player's card: their name, reliability and ratings.
func (s *Server) GetPlayer(ctx context.Context, req GetPlayerRequestObject) (GetPlayerResponseObject, error) {
	card, err := s.cfg.Play.Player(ctx, req.PlayerId)
	if err != nil {
		return nil, err
	}
	return GetPlayer200JSONResponse(playerCard(card)), nil
}

// playerCard is play's card in the API's shape.
func playerCard(card play.PlayerCard) PlayerCard {
	rel := card.Reliability
	out := PlayerCard{
		Id: card.ID, Name: card.Name, Ratings: make([]PlayerRating, 0, len(card.Ratings)),
		Reliability: Reliability{Finished: rel.Finished, Decisions: rel.Decisions, Missed: rel.Missed, Abandoned: rel.Abandoned, Met: rel.Met},
	}
	for _, r := range card.Ratings {
		out.Ratings = append(out.Ratings, PlayerRating{
			Game: r.Kind, Rating: r.Rating.Rating, Rd: r.Deviation, Volatility: r.Volatility, Games: r.Games,
		})
	}
	return out
}

// rounded is a rating as a whole number.
func rounded(r float64) *int {
	n := int(math.Round(r))
	return &n
}
