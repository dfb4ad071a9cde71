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
//
// A table in the cache is never changed: only committed tables are put
// back, and whoever changes one takes it out first. Readers (a brief) read a
// cached table in place; take waits for the readers that found the table
// before it was taken out, so a command never mutates a table being read.
type tableCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // front: most recently used; values are *cachedTable
	byID  map[string]*list.Element
	// out holds, for each game whose table is taken out, a channel closed
	// when a table of the game is put back or the taken one dropped: what a
	// brief may wait for rather than fold the game.
	out map[string]chan struct{}
}

// cachedTable is a table in the cache with the readers reading it.
type cachedTable struct {
	t       *Table
	readers sync.RWMutex
}

func newTableCache(maxGames int) *tableCache {
	return &tableCache{max: maxGames, order: list.New(), byID: map[string]*list.Element{}, out: map[string]chan struct{}{}}
}

// on reports whether the cache keeps tables at all.
func (c *tableCache) on() bool { return c != nil && c.max > 0 }

// take removes and returns the table of game id, or nil, once no reader
// reads it any more.
func (c *tableCache) take(id string) *Table {
	if !c.on() {
		return nil
	}
	c.mu.Lock()
	el, ok := c.byID[id]
	if !ok {
		c.mu.Unlock()
		return nil
	}
	c.order.Remove(el)
	delete(c.byID, id)
	if _, ok := c.out[id]; !ok {
		c.out[id] = make(chan struct{})
	}
	c.mu.Unlock()
	ct, _ := el.Value.(*cachedTable)
	// Out of the map, the table gains no new reader: wait for the ones
	// already reading it.
	ct.readers.Lock()
	defer ct.readers.Unlock()
	return ct.t
}

// version returns the version of the cached table of game id; when none
// is cached, out is closed once the table a command took out comes back
// (nil when none is out).
func (c *tableCache) version(id string) (v int, cached bool, out <-chan struct{}) {
	if !c.on() {
		return 0, false, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byID[id]
	if !ok {
		if ch, ok := c.out[id]; ok {
			return 0, false, ch
		}
		return 0, false, nil
	}
	ct, _ := el.Value.(*cachedTable)
	return ct.t.Version, true, nil
}

// read calls f with the cached table of game id, which no one changes
// while f runs (f must not change it either); false when none is cached.
func (c *tableCache) read(id string, f func(t *Table)) bool {
	if !c.on() {
		return false
	}
	c.mu.Lock()
	el, ok := c.byID[id]
	if !ok {
		c.mu.Unlock()
		return false
	}
	c.order.MoveToFront(el)
	ct, _ := el.Value.(*cachedTable)
	// Never blocks: a table whose writer waits is no longer in the map.
	ct.readers.RLock()
	c.mu.Unlock()
	defer ct.readers.RUnlock()
	f(ct.t)
	return true
}

// put stores t, evicting the least recently used tables beyond the bound.
// A table already cached for the game (put by a concurrent command) is kept
// if it is newer.
func (c *tableCache) put(t *Table) {
	if !c.on() || t == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.back(t.ID)
	if el, ok := c.byID[t.ID]; ok {
		if old, _ := el.Value.(*cachedTable); old != nil && old.t.Version >= t.Version {
			return
		}
		c.order.Remove(el)
	}
	c.byID[t.ID] = c.order.PushFront(&cachedTable{t: t})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		if old, ok := last.Value.(*cachedTable); ok {
			delete(c.byID, old.t.ID)
		}
	}
}

// drop says that the table of game id a command took out will not come
// back (the command failed).
func (c *tableCache) drop(id string) {
	if !c.on() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.back(id)
}

// back wakes whoever waits for the table of game id (c.mu held).
func (c *tableCache) back(id string) {
	if ch, ok := c.out[id]; ok {
		close(ch)
		delete(c.out, id)
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
