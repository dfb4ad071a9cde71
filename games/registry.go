package games

import (
	"fmt"
	"slices"
	"strings"
)

// Registry maps game ids to engines. It is built once at start (see the
// courrier binary) and read-only afterwards; there is no package-level
// registry.
type Registry struct {
	engines map[string]Engine
}

// NewRegistry returns a registry of the given engines; two engines with one id
// is a programming error and panics.
func NewRegistry(engines ...Engine) *Registry {
	r := &Registry{engines: make(map[string]Engine, len(engines))}
	for _, e := range engines {
		id := e.Info().ID
		if _, dup := r.engines[id]; dup {
			panic(fmt.Sprintf("games: two engines with id %q", id))
		}
		r.engines[id] = e
	}
	return r
}

// Get returns the engine of a game id, or an error listing the known ids.
func (r *Registry) Get(id string) (Engine, error) {
	if e, ok := r.engines[id]; ok {
		return e, nil
	}
	return nil, boardWords.Illegal("game", "refusal.no_game_of", id, strings.Join(r.IDs(), ", "))
}

// IDs lists the registered game ids in order.
func (r *Registry) IDs() []string {
	ids := make([]string, 0, len(r.engines))
	for id := range r.engines {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
