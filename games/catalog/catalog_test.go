package catalog_test

import (
	"github.com/courrier-games/courrier/games"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games/catalog"
)

// ruleID is a rule id as the engines name them in errors: a two-letter
// prefix, a number and an optional letter (TC-25b).
var ruleID = regexp.MustCompile(`"((?:TC|KC|CP|CO|CY)-[0-9]+[a-z]?)\b`)

// TestEveryRuleIDIsOnItsRulesPage reads each engine's code and checks that
// every rule id it can name is on its RULES.md, and that the page is served
// by the catalog as it is on disk.
func TestEveryRuleIDIsOnItsRulesPage(t *testing.T) {
	reg := catalog.Registry()
	for _, id := range reg.IDs() {
		t.Run(id, func(t *testing.T) {
			dir := filepath.Join("..", id)
			page, err := os.ReadFile(filepath.Join(dir, "RULES.md")) //nolint:gosec // G304: a file of this repository
			if err != nil {
				t.Fatalf("game %s has no rules page: %v", id, err)
			}
			served, err := catalog.RulesPage(id, games.English)
			if err != nil || served != string(page) {
				t.Fatalf("the catalog serves another rules page for %s (%v)", id, err)
			}
			files, err := filepath.Glob(filepath.Join(dir, "*.go"))
			if err != nil {
				t.Fatal(err)
			}
			var used []string
			for _, f := range files {
				if strings.HasSuffix(f, "_test.go") {
					continue
				}
				src, err := os.ReadFile(f) //nolint:gosec // G304: a file of this repository
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range ruleID.FindAllStringSubmatch(string(src), -1) {
					if !slices.Contains(used, m[1]) {
						used = append(used, m[1])
					}
				}
			}
			if len(used) == 0 {
				t.Fatalf("found no rule id in the code of %s: the pattern is wrong", id)
			}
			for _, rule := range used {
				if !regexp.MustCompile(`\b` + regexp.QuoteMeta(rule) + `\b`).Match(page) {
					t.Errorf("%s's code names rule %s, which its RULES.md does not list", id, rule)
				}
			}
			if strings.Contains(string(page), "../"+"shared") {
				t.Errorf("%s's RULES.md points outside the repository", id)
			}
			// Each other language has its page, with every rule id of the
			// English one, served by the catalog as it is on disk.
			ids := func(page []byte) []string {
				var out []string
				for _, m := range regexp.MustCompile(`\b(?:TC|KC|CP|CO|CY)-[0-9]+[a-z]?\b`).FindAll(page, -1) {
					if !slices.Contains(out, string(m)) {
						out = append(out, string(m))
					}
				}
				slices.Sort(out)
				return out
			}
			for _, lang := range games.Languages()[1:] {
				translated, err := os.ReadFile(filepath.Join(dir, "RULES."+lang+".md")) //nolint:gosec // G304: a file of this repository
				if err != nil {
					t.Errorf("game %s has no rules page in %s: %v", id, lang, err)
					continue
				}
				if served, err := catalog.RulesPage(id, lang); err != nil || served != string(translated) {
					t.Errorf("the catalog serves another %s rules page for %s (%v)", lang, id, err)
				}
				if a, b := ids(page), ids(translated); !slices.Equal(a, b) {
					t.Errorf("%s's RULES.%s.md names rules %v, RULES.md %v", id, lang, b, a)
				}
			}
		})
	}
}
