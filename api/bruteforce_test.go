package api_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
)

// storedEvent is an event as the store hashed it.
type storedEvent struct {
	version          int
	typ, data, meta  string
	recordedAt       time.Time
	hash             []byte
	servedToObserver json.RawMessage
}

// A player who computes tries every value a hidden card could have: for
// each event that hides something from the observer, each hidden value is
// replaced by every value of its kind found anywhere in the game, and the
// log's chain is recomputed up to the next receipt the observer was served
// (from its own moves and from away/back, the attack's way of taking one
// just before and after another seat's move). The attacker is even given
// what the observer is never served (the raw hash before, the events' meta
// and later hidden cards). Against the raw hash exactly the true value
// matches, which shows the attack is real; against the receipts served, no
// candidate may match.
func TestNoReceiptLetsAPlayerTryHiddenCards(t *testing.T) {
	base := catalog.Registry()
	tried := 0
	for gi, kind := range base.IDs() {
		t.Run(kind, func(t *testing.T) {
			eng, err := base.Get(kind)
			if err != nil {
				t.Fatal(err)
			}
			w := &world{name: kind, seed: games.Seed{0x3, byte(gi)}, e: newEnv(t, func(o *envOptions) { o.poll = 5 * time.Millisecond })} //nolint:gosec // G115: a small index
			w.setUp(t, kind, eng.Info().MinSeats)
			receipts := w.playTakingReceipts(t, rand.New(rand.NewPCG(uint64(gi), 5)), 30) //nolint:gosec // G115: a small index
			stored := w.storedEvents(t)
			hiddenEvents, candidates := 0, 0
			for k, ev := range stored {
				r := slices.IndexFunc(stored[k:], func(e storedEvent) bool { _, ok := receipts[e.version]; return ok })
				if r < 0 {
					break
				}
				upTo := stored[k : k+r+1]
				var prev []byte
				if k > 0 {
					prev = stored[k-1].hash
				}
				hidden := hiddenLeaves(t, ev)
				if len(hidden) == 0 {
					continue
				}
				hiddenEvents++
				domain := valuesOfKind(t, stored)
				for _, path := range hidden {
					matchRaw, matchServed := 0, 0
					for _, v := range domain[shapeOf(path)] {
						cand := w.withLeaf(t, ev.data, path, v)
						h := chain(prev, play.Stream(w.game), upTo, cand)
						candidates++
						if bytes.Equal(h, upTo[len(upTo)-1].hash) {
							matchRaw++
						}
						served := receipts[upTo[len(upTo)-1].version]
						for _, f := range publicTransforms(w.game) {
							if f(h) == served {
								matchServed++
							}
						}
					}
					if matchRaw != 1 {
						t.Fatalf("version %d, %v: %d candidates reproduce the raw hash, want exactly the true one: the attack is not computed as the store hashes", ev.version, path, matchRaw)
					}
					if matchServed > 0 {
						t.Fatalf("version %d: %d candidate values of the hidden %v match the receipt the observer was served at version %d: the receipt is an oracle",
							ev.version, matchServed, path, upTo[len(upTo)-1].version)
					}
				}
			}
			if hiddenEvents == 0 {
				t.Fatalf("%s: no event hid anything from the observer before a receipt", kind)
			}
			tried += candidates
			t.Logf("%s: %d receipts, %d events hiding something, %d candidates tried, none matched", kind, len(receipts), hiddenEvents, candidates)
		})
	}
	if tried == 0 {
		t.Fatal("no candidate was tried")
	}
}

// playTakingReceipts plays random moves; the observer takes a receipt by
// away and back after each other seat's move. It returns the heads served
// to the observer by version.
func (w *world) playTakingReceipts(t *testing.T, pick *rand.Rand, steps int) map[int]string {
	t.Helper()
	out := map[int]string{}
	take := func(r reply) {
		t.Helper()
		var g struct {
			Version int    `json:"version"`
			Head    string `json:"head"`
		}
		r.decode(t, &g)
		if r.status == http.StatusOK && g.Head != "" {
			out[g.Version] = g.Head
		}
	}
	for range steps {
		var acting []int
		var views []seatView
		for i := range w.tokens {
			v, _ := w.e.view(w.tokens[i], w.game)
			views = append(views, v)
			if len(v.Pending) > 0 && len(v.Legal) > 0 {
				acting = append(acting, i)
			}
		}
		if len(acting) == 0 || views[0].Game.Status == "finished" {
			break
		}
		i := acting[pick.IntN(len(acting))]
		r := w.e.call(http.MethodPost, "/v1/games/"+w.game+"/moves", w.tokens[i],
			map[string]any{"move": views[i].Legal[pick.IntN(len(views[i].Legal))], "expected_version": views[i].Version})
		if r.status != http.StatusOK {
			t.Fatalf("move of P%d: %d %s", i, r.status, r.body)
		}
		if i == twoWorldsObserver {
			take(r)
			continue
		}
		take(w.e.call(http.MethodPost, "/v1/games/"+w.game+"/away", w.tokens[twoWorldsObserver], map[string]any{"for": "1d"}))
		take(w.e.call(http.MethodPost, "/v1/games/"+w.game+"/back", w.tokens[twoWorldsObserver], nil))
	}
	if len(out) == 0 {
		t.Fatal("the observer was served no receipt")
	}
	return out
}

// storedEvents reads the game's events as hashed, each with the data the
// observer's feed serves for it.
func (w *world) storedEvents(t *testing.T) []storedEvent {
	t.Helper()
	rows, err := w.e.pool.Query(t.Context(), `select version, type, data::text, meta::text, recorded_at, hash from events where stream = $1 order by version`, play.Stream(w.game))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []storedEvent
	for rows.Next() {
		var e storedEvent
		if err := rows.Scan(&e.version, &e.typ, &e.data, &e.meta, &e.recordedAt, &e.hash); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var feed struct {
		Items []struct {
			Version int             `json:"version"`
			Data    json.RawMessage `json:"data"`
		} `json:"items"`
	}
	w.e.call(http.MethodGet, "/v1/games/"+w.game+"/events?since=0", w.tokens[twoWorldsObserver], nil).decode(t, &feed)
	for _, it := range feed.Items {
		if it.Version >= 1 && it.Version <= len(out) {
			out[it.Version-1].servedToObserver = it.Data
		}
	}
	return out
}

// jsonLeaves flattens a JSON document into its scalar leaves, keyed by
// their path as PostgreSQL's jsonb_set takes it.
func jsonLeaves(t *testing.T, doc []byte) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	if len(doc) == 0 {
		return out
	}
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", doc, err)
	}
	var walk func(path []string, v any)
	walk = func(path []string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				walk(append(slices.Clone(path), k), c)
			}
		case []any:
			for k, c := range x {
				walk(append(slices.Clone(path), strconv.Itoa(k)), c)
			}
		default:
			b, _ := json.Marshal(x) // a decoded scalar always encodes
			p, _ := json.Marshal(path)
			out[string(p)] = b
		}
	}
	walk([]string{}, v)
	return out
}

// hiddenLeaves are the paths of ev's data whose value the observer is not
// served.
func hiddenLeaves(t *testing.T, ev storedEvent) []string {
	t.Helper()
	full, shown := jsonLeaves(t, []byte(ev.data)), jsonLeaves(t, ev.servedToObserver)
	var out []string
	for p, v := range full {
		if s, ok := shown[p]; !ok || !bytes.Equal(s, v) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// shapeOf is a path without its indices.
func shapeOf(path string) string {
	var p []string
	_ = json.Unmarshal([]byte(path), &p)
	var out []string
	for _, s := range p {
		if _, err := strconv.Atoi(s); err != nil {
			out = append(out, s)
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// valuesOfKind maps each path shape to every value found there in the game.
func valuesOfKind(t *testing.T, stored []storedEvent) map[string][]json.RawMessage {
	t.Helper()
	out := map[string][]json.RawMessage{}
	for _, e := range stored {
		for p, v := range jsonLeaves(t, []byte(e.data)) {
			sh := shapeOf(p)
			if !slices.ContainsFunc(out[sh], func(x json.RawMessage) bool { return bytes.Equal(x, v) }) {
				out[sh] = append(out[sh], v)
			}
		}
	}
	return out
}

// withLeaf is data with the leaf at path set to v, as the store's jsonb
// prints it.
func (w *world) withLeaf(t *testing.T, data, path string, v json.RawMessage) string {
	t.Helper()
	var p []string
	if err := json.Unmarshal([]byte(path), &p); err != nil {
		t.Fatal(err)
	}
	var out string
	if err := w.e.pool.QueryRow(t.Context(), `select jsonb_set($1::jsonb, $2::text[], $3::jsonb)::text`, data, p, string(v)).Scan(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// chain recomputes the log's hash from prev over evs, the first with the
// candidate data.
func chain(prev []byte, stream string, evs []storedEvent, first string) []byte {
	h := prev
	for i, e := range evs {
		data := e.data
		if i == 0 {
			data = first
		}
		h = events.Digest(h, stream, e.version, e.typ, data, e.meta, e.recordedAt)
	}
	return h
}

// publicTransforms are what a server might serve of a hash that a player
// can compute too: the hash itself, its sha256, an HMAC keyed by the game's
// id. A receipt equal to any of them for a candidate card is an oracle.
func publicTransforms(game string) []func([]byte) string {
	return []func([]byte) string{
		hex.EncodeToString,
		func(h []byte) string { s := sha256.Sum256(h); return hex.EncodeToString(s[:]) },
		func(h []byte) string {
			m := hmac.New(sha256.New, []byte(game))
			_, _ = m.Write(h)
			return hex.EncodeToString(m.Sum(nil))
		},
		func(h []byte) string { return archive.ReceiptHead(games.Seed{}, game, h) }, // a key from a zero seed
	}
}
