package play

import "testing"

// Names a player could mistake for each other are confusable; names that
// merely share letters are not.
func TestConfusableNames(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"Alma", "\u0410lma", true}, // Cyrillic capital A
		{"alma", "\u0430lma", true}, // Cyrillic small a
		{"Alma", "ALMA", true},
		{"Paul", "PauI", true}, // capital I for l
		{"Mia", "rnia", true},
		{"Zoë", "Zoe\u0308", true}, // composed and decomposed
		{"Alma", "Alba", false},
		{"Ana", "Anna", false},
		{"Zoë", "Zoe", false},
	}
	for _, tt := range tests {
		if got := confusable(tt.a, tt.b); got != tt.want {
			t.Errorf("confusable(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
