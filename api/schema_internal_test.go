package api

import "testing"

// The schema's counts follow the reader's plural rules: "au moins 1
// propriété", not "1 propriétés".
func TestSchemaCountsArePlural(t *testing.T) {
	for _, tc := range []struct {
		reason, lang, want string
	}{
		{"there must be at least 1 properties", "fr", "il faut au moins 1 propriété"},
		{"there must be at least 1 properties", "en", "there must be at least 1 property"},
		{"there must be at least 2 properties", "fr", "il faut au moins 2 propriétés"},
		{"minimum string length is 1", "fr", "la chaîne doit avoir au moins 1 caractère"},
		{"maximum string length is 80", "fr", "la chaîne doit avoir au plus 80 caractères"},
	} {
		text, ok := schemaReason(tc.reason)
		if got := Words().In(tc.lang).Must(text); !ok || got != tc.want {
			t.Errorf("%q in %s: %q, want %q", tc.reason, tc.lang, got, tc.want)
		}
	}
}
