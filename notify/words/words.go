// Package words holds the words of courrier's mail: notify's catalog,
// one message file per language (en.toml, fr.toml, in go-i18n's format;
// see games.LoadCatalog), read once from the files embedded in the program.
// Every sentence of every mail, the mail commands' words and the pages of
// the mail side are keys of it; package notify says them in each
// recipient's language, and package notify/incoming reads the reply
// marker in every language from it. Adding a language is adding its
// message file (and its tag to games.Languages).
package words

import (
	"embed"
	"strings"

	"github.com/courrier-games/courrier/games"
)

//go:embed *.toml
var files embed.FS

// own is notify's catalog alone; all is it over the words every board
// shares (dates, lists, the names of the languages). Both are read once
// and never changed.
var (
	own = games.MustLoadCatalog(files)
	all = own.With(games.BoardWords())
)

// Own is notify's catalog alone: what its completeness test checks.
func Own() *games.Catalog { return own }

// Catalog is notify's catalog over the words every board shares: what
// mail is said with.
func Catalog() *games.Catalog { return all }

// MarkerKey is the key of the reply marker, the first line of every mail a
// person may answer.
const MarkerKey = "mail.marker"

// Markers are the reply marker in every language of the catalog, English
// first.
func Markers() []string {
	var out []string
	for _, lang := range own.Languages() {
		if p, ok := own.Patterns(lang, MarkerKey); ok && len(p) > 0 {
			out = append(out, strings.TrimSpace(p[0]))
		}
	}
	return out
}
