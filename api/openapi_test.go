package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/api"
)

// The document is the API: every /v1 route the server answers is in it,
// every operation in it is a route, and the server serves it.
func TestEveryRouteIsDocumentedAndEveryDocumentedRouteExists(t *testing.T) {
	e := newEnv(t)
	doc, err := api.GetSwagger()
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented = append(documented, method+" "+path)
		}
	}
	var served []string
	for _, r := range e.server.Routes() {
		if strings.HasPrefix(r, "GET /v1/openapi.json") {
			continue
		}
		if strings.Contains(r, " /v1/") {
			served = append(served, r)
		}
	}
	slices.Sort(documented)
	slices.Sort(served)
	for _, d := range documented {
		if !slices.Contains(served, d) {
			t.Errorf("documented but not served: %s", d)
		}
	}
	for _, s := range served {
		if !slices.Contains(documented, s) {
			t.Errorf("served but not documented: %s", s)
		}
	}
	r := e.call(http.MethodGet, "/v1/openapi.json", "", nil)
	var got map[string]any
	if err := json.Unmarshal(r.body, &got); err != nil || r.status != http.StatusOK || got["openapi"] == nil {
		t.Fatalf("/v1/openapi.json: %d %v", r.status, err)
	}
	if len(documented) < 15 {
		t.Fatalf("only %d operations documented", len(documented))
	}
}
