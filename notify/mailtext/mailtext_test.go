package mailtext_test

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/courrier-games/courrier/notify/mailtext"
)

func TestFill(t *testing.T) {
	long := strings.Fields(strings.Repeat("Ana Bob Cleo Dan ", 12))
	for _, tc := range []struct {
		name        string
		first, cont string
		atoms       []string
		punct       string
		want        []string
	}{
		{"one line", "- ", "  ", []string{"bid", "4"}, "", []string{"- bid 4"}},
		{"punctuated", "", "", []string{"Ana", "Bob", "Cleo"}, ",", []string{"Ana, Bob, Cleo"}},
		{"nothing", "  1. ", "     ", nil, "", []string{"  1."}},
		{"a word longer than a line stays whole", "", "", []string{strings.Repeat("a", 80)}, "", []string{strings.Repeat("a", 80)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mailtext.Fill(tc.first, tc.cont, tc.atoms, tc.punct); !slices.Equal(got, tc.want) {
				t.Errorf("Fill = %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("wrapped under the continuation", func(t *testing.T) {
		got := mailtext.Fill("- ", "  ", long, "")
		if len(got) < 2 {
			t.Fatalf("%d words on %d line(s)", len(long), len(got))
		}
		for i, l := range got {
			if utf8.RuneCountInString(l) > 72 || (i > 0 && !strings.HasPrefix(l, "  ")) || (i == 0 && !strings.HasPrefix(l, "- ")) {
				t.Errorf("line %d: %q", i, l)
			}
		}
		if strings.Join(strings.Fields(strings.Join(got, " ")), " ") != "- "+strings.Join(long, " ") {
			t.Error("the words changed")
		}
	})
}
