package main

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/courrier-games/courrier/api"
	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/notify/words"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/web"
)

// Every catalog of the program speaks every language courrier speaks: each
// key in each language, placing the same arguments as English.
func TestEveryCatalogSpeaksEveryLanguage(t *testing.T) {
	catalogs := map[string]*games.Catalog{
		"games": games.BoardWords(), "play": play.Words(), "api": api.Words(), "api/auth": auth.Words(),
		"web": web.Words(), "notify": words.Catalog(),
	}
	reg := catalog.Registry()
	for _, id := range reg.IDs() {
		eng, err := reg.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		catalogs["games/"+id] = eng.Words()
	}
	for _, name := range slices.Sorted(maps.Keys(catalogs)) {
		if err := catalogs[name].Complete(); err != nil {
			t.Errorf("the catalog of %s is not complete:\n%v", name, err)
		}
	}
}

// Every message file of the repository (a words/ directory of some
// package) has a file for each language with the same keys: a package
// added later cannot ship English alone, even if it forgets its own test.
func TestEveryMessageFileHasEveryLanguage(t *testing.T) {
	root := filepath.Join("..", "..")
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "en.toml" {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("found %d message directories (%v): the walk is wrong", len(dirs), dirs)
	}
	keys := func(path string) []string {
		var m map[string]any
		if _, err := toml.DecodeFile(path, &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return slices.Sorted(maps.Keys(m))
	}
	for _, dir := range dirs {
		en := keys(filepath.Join(dir, "en.toml"))
		for _, lang := range games.Languages()[1:] {
			path := filepath.Join(dir, lang+".toml")
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s has no %s.toml", dir, lang)
				continue
			}
			if other := keys(path); !slices.Equal(en, other) {
				var missing, extra []string
				for _, k := range en {
					if !slices.Contains(other, k) {
						missing = append(missing, k)
					}
				}
				for _, k := range other {
					if !slices.Contains(en, k) {
						extra = append(extra, k)
					}
				}
				t.Errorf("%s: %s.toml lacks %s and has %s that en.toml does not", dir, lang, strings.Join(missing, ", "), strings.Join(extra, ", "))
			}
		}
	}
}
