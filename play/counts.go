package play

import (
	"maps"
	"sync"
)

// moveCounts counts the moves a Service committed since it started, by
// the channel they came through: /metrics turns them into moves per second
// by every door (the API counts only its own).
type moveCounts struct {
	mu        sync.Mutex
	byChannel map[string]int64
}

// add counts one committed move through channel.
func (m *moveCounts) add(channel string) {
	if channel == "" {
		channel = "unknown"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byChannel == nil {
		m.byChannel = map[string]int64{}
	}
	m.byChannel[channel]++
}

// MovesCommitted returns how many moves (a seat's move or resignation,
// counted once per command however many lines it played) this Service
// committed since it started, by channel (ChannelAPI, ChannelEmail,
// ChannelWeb, ChannelCLI, …). A replayed idempotent request is not counted
// again.
func (s *Service) MovesCommitted() map[string]int64 {
	s.moves.mu.Lock()
	defer s.moves.mu.Unlock()
	return maps.Clone(s.moves.byChannel)
}
