package notify

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/draw"
)

// boardPicture draws a seat's board for a mail's HTML part: the same
// drawing the web shows (package games/draw), as a PNG since few mail
// programs show SVG, built from the seat's view only. The text part tells
// the same board in words, so a mail without its picture loses nothing:
// a game without a board, or a drawing that fails (logged), has none. Its
// words (names, labels) are in lang, the mail's language.
func (s *Service) boardPicture(ctx context.Context, kind string, view json.RawMessage, cid, lang string) []InlineImage {
	eng, err := s.play.Registry().Get(kind)
	if err != nil {
		return nil
	}
	b, err := eng.Board(view)
	if errors.Is(err, games.ErrNoBoard) {
		return nil
	}
	var d *draw.Drawing
	var data []byte
	if err == nil {
		d, err = draw.Draw(b, eng.Words().In(lang), draw.Options{})
	}
	if err == nil {
		data, err = s.paint.PNG(d, draw.MailScale)
	}
	if err != nil {
		s.log.WarnContext(ctx, "the board is not drawn in the mail: its words are", "game", kind, "err", err)
		return nil
	}
	return []InlineImage{{CID: cid, ContentType: "image/png", Width: d.Width, Height: d.Height, Data: data}}
}
