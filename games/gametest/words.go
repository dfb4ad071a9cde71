package gametest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// KeysInSource are the catalog keys a package's code names: every string
// literal of the Go files in dir that key matches (anchor it to match
// whole literals), test files and generated ones ("Code generated … DO
// NOT EDIT.") left out, comments too. It fails t when dir holds no such
// file or no literal matches: the scan would prove nothing.
func KeysInSource(t testing.TB, dir string, key *regexp.Regexp) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatalf("the Go files of %s: %v", dir, err)
	}
	keys := map[string]bool{}
	fset := token.NewFileSet()
	read := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		if ast.IsGenerated(file) {
			continue
		}
		read++
		ast.Inspect(file, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && key.MatchString(s) {
					keys[s] = true
				}
			}
			return true
		})
	}
	if read == 0 {
		t.Fatalf("%s holds no Go file of code to scan", dir)
	}
	if len(keys) == 0 {
		t.Fatalf("no string literal of %s matches %s: the pattern is wrong", dir, key)
	}
	return keys
}

// OneLanguage is c's patterns in lang alone, each form of each key a
// message of its own, over the words all boards share (as
// games.CatalogOf builds). Its Foreign(other) is every run of c's patterns
// in lang, even those the same key's pattern in other holds: what a check
// that no pattern is left untranslated, even in part, looks for.
func OneLanguage(c *games.Catalog, lang string) *games.Catalog {
	patterns := map[string]string{}
	for _, key := range c.Keys() {
		forms, _ := c.Patterns(lang, key)
		for i, p := range forms {
			patterns[key+"#"+strconv.Itoa(i)] = p
		}
	}
	return games.CatalogOf(lang, patterns)
}

// SayEveryKey says each key of c that matches key in lang, every argument
// 2 (a number says itself in every language): what a test scans for words
// of another language. A key that cannot be said fails t.
func SayEveryKey(t testing.TB, c *games.Catalog, lang string, key *regexp.Regexp) map[string]string {
	t.Helper()
	out := map[string]string{}
	w := c.In(lang)
	for _, k := range c.Keys() {
		if !key.MatchString(k) {
			continue
		}
		pats, _ := c.Patterns(lang, k)
		n := 0
		for _, p := range pats {
			for _, m := range argPlace.FindAllString(p, -1) {
				i, _ := strconv.Atoi(strings.Trim(m, "{}"))
				n = max(n, i+1)
			}
		}
		args := make([]any, n)
		for i := range args {
			args[i] = 2
		}
		said, err := w.Say(games.T(k, args...))
		if err != nil {
			t.Errorf("%s: %v", k, err)
			continue
		}
		out[k] = said
	}
	return out
}

// argPlace is a pattern's place of an argument: {0}.
var argPlace = regexp.MustCompile(`\{\d+\}`)
