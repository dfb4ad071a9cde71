package mailtext_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/courrier-games/courrier/notify/mailtext"
)

func TestView(t *testing.T) {
	for _, tc := range []struct {
		name, view, want string
	}{
		{
			"a Coyote seat",
			`{"seat":1,"deck":"classic","round":2,"players":[{"seat":0,"name":"Ana","coyotes":0,"feather":{"value":5}},` +
				`{"seat":1,"name":"Bob","coyotes":1,"hidden":true}],"turn":1,"bid":3,"discard":[],"pile_size":20,"over":false}`,
			`seat: 1
deck: classic
round: 2
players:
  - seat: 0, name: Ana, coyotes: 0, feather: 5
  - seat: 1, name: Bob, coyotes: 1, hidden: yes
turn: 1
bid: 3
pile size: 20`,
		},
		{"keys in the JSON's order", `{"z":1,"a":2,"m":3}`, "z: 1\na: 2\nm: 3"},
		{
			"keys made readable",
			`{"pile_size":1,"lastMove":"bid 3","playerID":"p1","HTTPStatus":"ok","cards-left":4,"_":5}`,
			"pile size: 1\nlast move: bid 3\nplayer id: p1\nhttp status: ok\ncards left: 4\n_: 5",
		},
		{
			"nested objects indented",
			`{"score":{"ana":3,"bob":{"total":2,"bonus":1}},"turn":1}`,
			"score:\n  ana: 3\n  bob:\n    total: 2\n    bonus: 1\nturn: 1",
		},
		{
			"empty, false and null left out",
			`{"a":null,"b":false,"c":"","d":[],"e":{},"f":{"g":null,"h":[]},"i":0,"j":true,"k":" "}`,
			"i: 0\nj: yes",
		},
		{"arrays of scalars on one line", `{"hand":[1,2,3],"names":["Ana","Bob"],"flags":[true,false]}`, "hand: 1, 2, 3\nnames: Ana, Bob\nflags: yes, no"},
		{"nulls keep their place in an array", `{"seats":["Ana",null,"","Bob"]}`, "seats: Ana, -, -, Bob"},
		{"numbers as written", `{"x":1.50,"y":1e3,"z":-0}`, "x: 1.50\ny: 1e3\nz: -0"},
		{
			"long arrays wrap",
			`{"deck":[10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39]}`,
			"deck: 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,\n" +
				"  26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39",
		},
		{
			"long strings wrap",
			`{"log":"Ana bid 3, Bob bid 5, Cleo called Coyote and the sum of the feathers was 21, so Bob takes a coyote."}`,
			"log: Ana bid 3, Bob bid 5, Cleo called Coyote and the sum of the\n" +
				"  feathers was 21, so Bob takes a coyote.",
		},
		{"multi-line strings", `{"note":"line one\nline two"}`, "note:\n  line one\n  line two"},
		{
			"objects in arrays, compact",
			`{"players":[{"name":"Ana","card":{"suit":"red","value":5},"hand":[1,2],"gone":null},{}]}`,
			"players:\n  - name: Ana, card: (suit: red, value: 5), hand: [1, 2]\n  - (empty)",
		},
		{
			"long items wrap at commas",
			`{"players":[{"name":"Anastasia Lima","coyotes":2,"feather":{"value":15},"status":"waiting for the others","note":"first player"}]}`,
			"players:\n  - name: Anastasia Lima, coyotes: 2, feather: 15,\n" +
				"    status: waiting for the others, note: first player",
		},
		{"arrays of arrays", `{"grid":[[1,0],[0,1]]}`, "grid:\n  - 1, 0\n  - 0, 1"},
		{"an array at the top", `[{"name":"Ana"},{"name":"Bob","score":2}]`, "- name: Ana\n- name: Bob, score: 2"},
		{"scalars at the top", `[1, 2, "three"]`, "1, 2, three"},
		{"a string at the top", `"  hello   there "`, "hello there"},
		{"a number at the top", `42`, "42"},
		{"null", `null`, ""},
		{"nothing", ``, ""},
		{"an empty object", `{}`, ""},
		{"not JSON", `{"a": 1`, `{"a": 1`},
		{"two values", `{"a": 1} {"b": 2}`, `{"a": 1} {"b": 2}`},
		{"non-ASCII", `{"joueuse":"Zoë","mains":["♠","♥"]}`, "joueuse: Zoë\nmains: ♠, ♥"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mailtext.View([]byte(tc.view))
			if got != tc.want {
				t.Errorf("View(%s)\n got:\n%s\nwant:\n%s", tc.view, got, tc.want)
			}
			for l := range strings.SplitSeq(got, "\n") {
				if utf8.RuneCountInString(l) > 76 {
					t.Errorf("a line of %d characters: %q", utf8.RuneCountInString(l), l)
				}
			}
			if again := mailtext.View([]byte(tc.view)); again != got {
				t.Errorf("a second rendering differs:\n%s", again)
			}
		})
	}
}
