package play

import (
	"embed"

	"github.com/courrier-games/courrier/games"
)

//go:embed words/*.toml
var wordFiles embed.FS

// words is play's catalog (refusals, what the game's own events did), in
// every language, over the words all games share; read once, never
// changed.
var words = games.GameCatalog(wordFiles, "words")

// Words is play's catalog, for the doors' catalog checks.
func Words() *games.Catalog { return words }
