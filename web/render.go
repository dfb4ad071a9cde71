package web

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"net/http"
	"regexp"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// pageNames are the pages, each parsed with the layout and the partials
// into its own set; "boards" holds the game boards alone.
var pageNames = []string{"home", "login", "account", "games", "new", "game", "history", "audit", "rules", "error", "settings", "player"}

// pageSet is every page of one language by name.
type pageSet map[string]*template.Template

// parsePages parses every page once per language, at start: a language's
// pages say web's words in it (templateWords).
func parsePages(funcs template.FuncMap) (map[string]pageSet, error) {
	out := map[string]pageSet{}
	for _, lang := range games.Languages() {
		all := template.FuncMap{}
		maps.Copy(all, funcs)
		maps.Copy(all, templateWords(lang))
		set, err := parseLanguage(all)
		if err != nil {
			return nil, fmt.Errorf("web: the pages in %s: %w", lang, err)
		}
		out[lang] = set
	}
	return out, nil
}

// parseLanguage parses every page with funcs.
func parseLanguage(funcs template.FuncMap) (pageSet, error) {
	out := pageSet{}
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/boards.html", "templates/pages/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: parse page %s: %w", name, err)
		}
		out[name] = t
	}
	t, err := template.New("boards").Funcs(funcs).ParseFS(files, "templates/boards.html")
	if err != nil {
		return nil, fmt.Errorf("web: parse the boards: %w", err)
	}
	out["boards"] = t
	// Every page file is one of pageNames: none is left unparsed.
	entries, err := fs.ReadDir(files, "templates/pages")
	if err != nil {
		return nil, fmt.Errorf("web: list the pages: %w", err)
	}
	for _, e := range entries {
		if _, ok := out[strings.TrimSuffix(e.Name(), ".html")]; !ok {
			return nil, fmt.Errorf("web: page file %s is not in pageNames", e.Name())
		}
	}
	return out, nil
}

func (h *Handler) funcs() template.FuncMap {
	return template.FuncMap{
		"asset": func(name string) string { return h.assets[name] },
		"add":   func(a, b int) int { return a + b },
		"lower": strings.ToLower,
		"join":  strings.Join,
		"seq": func(n int) []int {
			out := make([]int, max(n, 0))
			for i := range out {
				out[i] = i
			}
			return out
		},
	}
}

// assetURLs names each static file by a checksum of its content, so that
// it can be cached for ever.
func assetURLs() (map[string]string, error) {
	out := map[string]string{}
	entries, err := fs.ReadDir(files, "static")
	if err != nil {
		return nil, fmt.Errorf("web: static files: %w", err)
	}
	for _, e := range entries {
		b, err := fs.ReadFile(files, "static/"+e.Name())
		if err != nil {
			return nil, fmt.Errorf("web: static file %s: %w", e.Name(), err)
		}
		sum := sha256.Sum256(b)
		out[e.Name()] = "/static/" + e.Name() + "?v=" + hex.EncodeToString(sum[:6])
	}
	return out, nil
}

// staticFiles serves the embedded assets, cached for a year (their URLs
// change with their content).
func staticFiles(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// favicon serves the site's icon where browsers look for it by default,
// cached for a day (its URL never changes).
func favicon(w http.ResponseWriter, _ *http.Request) {
	b, err := fs.ReadFile(files, "static/favicon.ico")
	if err != nil {
		http.Error(w, "no icon", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "image/x-icon")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(b) // the client went away: nothing to do
}

// block is one block of a rules page: a heading, a paragraph, a list, a
// table or preformatted text. Text is plain: the template escapes it.
type block struct {
	Kind  string // h2, h3, h4, p, ul, table, pre
	Text  string
	Items []item
	Rows  [][]string
	ID    string
}

// item is one item of a list; ID is the rule it states ("CY-6"), the
// anchor that a refusal citing the rule links to.
type item struct {
	Text, ID string
}

// ruleItem is a list item that states a rule: it starts with the rule's
// id in bold ("**CY-6** [TEXT] On your turn…").
var ruleItem = regexp.MustCompile(`^\*\*([A-Z]{1,4}-[0-9]+[a-z]?)\*\*`)

var (
	mdEmphasis = regexp.MustCompile("[`*]")
	mdLink     = regexp.MustCompile(`\[([^\]]+)\]\([^)]+\)`)
)

// plain drops Markdown's inline marks.
func plain(s string) string {
	return strings.TrimSpace(mdEmphasis.ReplaceAllString(mdLink.ReplaceAllString(s, "$1"), ""))
}

// markdown reads the subset of Markdown the rules pages use into blocks.
func markdown(src string) []block {
	var out []block
	ids := map[string]bool{}
	listItem := func(raw string) item {
		it := item{Text: plain(raw)}
		if m := ruleItem.FindStringSubmatch(raw); m != nil && !ids[m[1]] {
			ids[m[1]] = true
			it.ID = m[1]
		}
		return it
	}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		switch {
		case t == "":
		case strings.HasPrefix(t, "```"):
			var pre []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				pre = append(pre, lines[i])
			}
			out = append(out, block{Kind: "pre", Text: strings.Join(pre, "\n")})
		case strings.HasPrefix(t, "#"):
			level := len(t) - len(strings.TrimLeft(t, "#"))
			text := plain(strings.TrimLeft(t, "# "))
			out = append(out, block{Kind: fmt.Sprintf("h%d", min(level+1, 4)), Text: text, ID: anchor(text)})
		case strings.HasPrefix(t, "|"):
			b := block{Kind: "table"}
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				cells := strings.Split(strings.Trim(strings.TrimSpace(lines[i]), "|"), "|")
				if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
					continue // the header's rule
				}
				row := make([]string, len(cells))
				for k, c := range cells {
					row[k] = plain(c)
				}
				b.Rows = append(b.Rows, row)
			}
			i--
			out = append(out, b)
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || listNumber.MatchString(t):
			b := block{Kind: "ul"}
			for ; i < len(lines); i++ {
				lt := strings.TrimSpace(lines[i])
				switch {
				case strings.HasPrefix(lt, "- ") || strings.HasPrefix(lt, "* "):
					b.Items = append(b.Items, listItem(lt[2:]))
				case listNumber.MatchString(lt):
					b.Items = append(b.Items, listItem(listNumber.ReplaceAllString(lt, "")))
				case lt != "" && len(b.Items) > 0 && strings.HasPrefix(lines[i], " "):
					b.Items[len(b.Items)-1].Text += " " + plain(lt)
				default:
					i--
					out = append(out, b)
					goto next
				}
			}
			out = append(out, b)
		default:
			para := []string{plain(t)}
			for i+1 < len(lines) {
				n := strings.TrimSpace(lines[i+1])
				if n == "" || strings.HasPrefix(n, "#") || strings.HasPrefix(n, "|") || strings.HasPrefix(n, "- ") || strings.HasPrefix(n, "```") {
					break
				}
				para = append(para, plain(n))
				i++
			}
			out = append(out, block{Kind: "p", Text: strings.Join(para, " ")})
		}
	next:
	}
	return out
}

var listNumber = regexp.MustCompile(`^\d+\.\s+`)

// anchor is a heading's id: its words folded (no accents, lower case),
// joined by hyphens.
func anchor(s string) string {
	var b strings.Builder
	for _, r := range games.FoldWord(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-':
			b.WriteByte('-')
		}
	}
	return b.String()
}
