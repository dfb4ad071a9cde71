package play

import (
	"container/list"
	"sync"
)

// tableCache is the bounded in-process cache of folded games: a command
// takes its game's table out (so no two commands share a state, which Evolve
// may change in place), reads only the events after the table's version, and
// puts the advanced table back after its commit. Correctness never depends
// on it: a table made stale by another process is caught by the
// expected-version append, and the retry folds afresh.
type tableCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // front: most recently used; values are *Table
	byID  map[string]*list.Element
}

func newTableCache(maxGames int) *tableCache {
	return &tableCache{max: maxGames, order: list.New(), byID: map[string]*list.Element{}}
}

// take removes and returns the table of game id, or nil.
func (c *tableCache) take(id string) *Table {
	if c == nil || c.max <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byID[id]
	if !ok {
		return nil
	}
	c.order.Remove(el)
	delete(c.byID, id)
	t, _ := el.Value.(*Table)
	return t
}

// put stores t, evicting the least recently used tables beyond the bound.
// A table already cached for the game (put by a concurrent command) is kept
// if it is newer.
func (c *tableCache) put(t *Table) {
	if c == nil || c.max <= 0 || t == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[t.ID]; ok {
		if old, _ := el.Value.(*Table); old != nil && old.Version >= t.Version {
			return
		}
		c.order.Remove(el)
	}
	c.byID[t.ID] = c.order.PushFront(t)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		if old, ok := last.Value.(*Table); ok {
			delete(c.byID, old.ID)
		}
	}
}

// len is the number of cached games.
func (c *tableCache) len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
