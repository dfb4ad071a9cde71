package archive_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/games/gametest"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
)

// archive's catalog has every key in every language, each placing the
// same arguments as English.
func TestArchivesCatalogIsComplete(t *testing.T) {
	if err := archive.Words().Complete(); err != nil {
		t.Fatal(err)
	}
}

// catalogKey is a key of archive's own words as the code names them.
var catalogKey = regexp.MustCompile(`^(checked|unchecked|problem|what|ruling)\.[a-z_]+$`)

// Every key archive's code says is in its catalog, and every key of the
// catalog is said somewhere (the decisions through Ruling.Said).
func TestEveryKeyArchiveSaysIsInItsCatalog(t *testing.T) {
	used := gametest.KeysInSource(t, ".", catalogKey)
	used["ruling.upheld"], used["ruling.rejected"] = true, true
	if len(used) < 40 {
		t.Fatalf("only %d keys found in archive's code: the scan is broken", len(used))
	}
	for k := range used {
		for _, lang := range games.Languages() {
			if _, ok := archive.Words().Patterns(lang, k); !ok {
				t.Errorf("archive's code says %q, which its %s catalog lacks", k, lang)
			}
		}
	}
	for _, k := range archive.Words().Keys() {
		if catalogKey.MatchString(k) && !used[k] {
			t.Errorf("the catalog has %q, which archive's code never says", k)
		}
	}
	for _, tt := range []struct{ decision, en, fr string }{
		{"upheld", "upheld", "contestation fondée"},
		{"rejected", "rejected", "contestation rejetée"},
		{"later", "later", "later"}, // a decision the catalog does not name
	} {
		said := archive.Ruling{Decision: tt.decision}.Said()
		if said.In("en") != tt.en || said.In("fr") != tt.fr {
			t.Errorf("the decision %q is said %q, %q; want %q, %q", tt.decision, said.In("en"), said.In("fr"), tt.en, tt.fr)
		}
	}
}

// fragments are the runs of three words or more of every pattern in lang
// of the catalogs, even those another language says alike (a pattern left
// untranslated, wholly or in part): what a text in another language must
// not contain, in lower case with one space between words.
func fragments(lang string, cats ...*games.Catalog) []string {
	var out []string
	for _, c := range cats {
		for _, other := range games.Languages() {
			if other != lang {
				out = append(out, gametest.OneLanguage(c, lang).Foreign(other)...)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// lowered is s in lower case with one space between words, as fragments
// are.
func lowered(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// allCatalogs are archive's, the shared words and every game's.
func allCatalogs() []*games.Catalog {
	cats := []*games.Catalog{archive.Words(), games.BoardWords()}
	reg := catalog.Registry()
	for _, id := range reg.IDs() {
		eng, _ := reg.Get(id)
		cats = append(cats, eng.Words())
	}
	return cats
}

// Every sentence of archive's catalog, said in French with any arguments,
// holds no sentence of an English pattern.
func TestEveryProblemHasFrenchWords(t *testing.T) {
	english := fragments("en", archive.Words(), games.BoardWords())
	for k, said := range gametest.SayEveryKey(t, archive.Words(), "fr", catalogKey) {
		for _, f := range english {
			if strings.Contains(lowered(said), f) {
				t.Errorf("%s: the French %q says %q in English", k, said, f)
			}
		}
	}
}

// The problems of tampered logs and records, and what an audit checked,
// are said in the reader's language: in French with no English sentence of
// any catalog (a move's refusal by the rules in the game's French words),
// in English with no French one.
func TestAuditReportInTheReadersLanguage(t *testing.T) {
	reg := catalog.Registry()
	folder := play.Folder(reg)
	g := writeGame(t, reg, "coyote", 3)
	moved := slices.IndexFunc(g.recorded, func(e events.Recorded) bool {
		return strings.HasPrefix(e.Type, "coyote.") && strings.Contains(string(e.Meta), `"move"`)
	})
	alter := func(f func([]events.Recorded) []events.Recorded) []events.Recorded {
		return f(append([]events.Recorded(nil), g.recorded...))
	}
	wrong := games.Seed{9}
	record := func(f func(string) string) *archive.Record {
		var b bytes.Buffer
		if err := archive.WriteRecord(&b, folder, g.id, g.recorded, archive.Viewer{Seat: games.Spectator, Full: true}); err != nil {
			t.Fatal(err)
		}
		rec, err := archive.ParseRecord(strings.NewReader(f(b.String())))
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	cases := []struct {
		name string
		rep  func() *archive.AuditReport
		fr   string // what one French problem says
	}{
		{"an illegal move", func() *archive.AuditReport {
			rec := alter(func(r []events.Recorded) []events.Recorded {
				r[moved].Meta = json.RawMessage(strings.Replace(string(r[moved].Meta), `"move":"`, `"move":"bid 99`, 1))
				return r
			})
			return archive.Audit(folder, archive.AuditInput{GameID: g.id, Recorded: rec, Seed: &g.seed})
		}, "le coup « enchère 99bid 57 » de la place 0 n’était pas légal quand il a été joué : une enchère s’écrit enchère"},
		{"a wrong seed", func() *archive.AuditReport {
			return archive.Audit(folder, archive.AuditInput{GameID: g.id, Recorded: g.recorded, Seed: &wrong})
		}, "ne correspond pas à l’empreinte publiée à la création"},
		{"altered data", func() *archive.AuditReport {
			rec := alter(func(r []events.Recorded) []events.Recorded {
				r[moved].Data = json.RawMessage(`{"altered":true}`)
				return r
			})
			return archive.Audit(folder, archive.AuditInput{GameID: g.id, Recorded: rec, Seed: &g.seed})
		}, "que celles du journal"},
		{"a missing version", func() *archive.AuditReport {
			rec := alter(func(r []events.Recorded) []events.Recorded { return slices.Delete(r, moved, moved+1) })
			return archive.Audit(folder, archive.AuditInput{GameID: g.id, Recorded: rec, Seed: &g.seed})
		}, "manque (l’événement suivant est la version"},
		{"an altered chain", func() *archive.AuditReport {
			return archive.Audit(folder, archive.AuditInput{GameID: g.id, Recorded: g.recorded, Seed: &g.seed, Chain: true,
				ChainError: &events.ChainError{Version: moved + 1, Reason: "its content or a predecessor was altered"}})
		}, "la chaîne des empreintes est rompue : son contenu"},
		{"a seed that does not open", func() *archive.AuditReport {
			return archive.Audit(folder, archive.AuditInput{GameID: g.id, Recorded: g.recorded[:moved+1], SeedError: "x509"})
		}, ""},
		{"a record's headers", func() *archive.AuditReport {
			rep, err := archive.VerifyRecord(folder, record(func(s string) string {
				s = regexp.MustCompile(`\[Result "[^"]*"\]`).ReplaceAllString(s, `[Result "Zed wins"]`)
				return regexp.MustCompile(`\[Seed "[^"]*"\]`).ReplaceAllString(s, `[Seed "nope"]`)
			}))
			if err != nil {
				t.Fatal(err)
			}
			return rep
		}, "l’en-tête Seed du relevé n’est pas une graine"},
	}
	english := fragments("en", allCatalogs()...)
	french := fragments("fr", allCatalogs()...)
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			rep := tt.rep()
			if tt.fr != "" && rep.Passed {
				t.Fatal("the audit passed")
			}
			var said []games.Phrase
			said = append(said, rep.Checked...)
			said = append(said, rep.Unchecked...)
			found := tt.fr == ""
			for _, p := range rep.Problems {
				said = append(said, p.What)
				found = found || strings.Contains(p.What.In("fr"), tt.fr)
			}
			if !found {
				t.Errorf("no French problem says %q: %+v", tt.fr, rep.Problems)
			}
			for _, p := range said {
				for lang, foreign := range map[string][]string{"fr": english, "en": french} {
					s := p.In(lang)
					if s == "" || strings.Contains(s, "[games:") {
						t.Errorf("said in %s: %q", lang, s)
					}
					for _, f := range foreign {
						if strings.Contains(lowered(s), f) {
							t.Errorf("in %s, %q says %q", lang, s, f)
						}
					}
				}
			}
		})
	}
}
