package play

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/courrier-games/courrier/games"
)

// SeedKey is one key of a SeedBox: 32 bytes of secret and the id stored
// beside each seed it sealed.
type SeedKey struct {
	ID     string
	Secret []byte
}

// SeedBox seals game seeds at rest with AES-256-GCM, the game id as
// associated data, under keys kept outside the database (the data directory
// or the environment): whoever reads a replica or a backup of the database
// cannot predict a live game's draws. Seeds are sealed with the current key
// and opened with whichever key sealed them, so keys rotate by adding one.
type SeedBox struct {
	current string
	aeads   map[string]cipher.AEAD
}

// NewSeedBox returns a box that seals with current and opens with current
// and older.
func NewSeedBox(current SeedKey, older ...SeedKey) (*SeedBox, error) {
	b := &SeedBox{current: current.ID, aeads: map[string]cipher.AEAD{}}
	for _, k := range append([]SeedKey{current}, older...) {
		if k.ID == "" || len(k.Secret) != 32 {
			return nil, fmt.Errorf("seed key %q: an id and exactly 32 bytes of secret are needed", k.ID)
		}
		if _, dup := b.aeads[k.ID]; dup {
			return nil, fmt.Errorf("two seed keys with id %q", k.ID)
		}
		block, err := aes.NewCipher(k.Secret)
		if err != nil {
			return nil, fmt.Errorf("seed key %q: %w", k.ID, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("seed key %q: %w", k.ID, err)
		}
		b.aeads[k.ID] = aead
	}
	return b, nil
}

// NewEphemeralSeedBox returns a box with a fresh random key that lives as
// long as the process: for tests, and for a Service made without
// WithSeedBox, whose games' seeds no other process can open (`serve` always
// gives the data directory's keys).
func NewEphemeralSeedBox() *SeedBox {
	k := SeedKey{Secret: make([]byte, 32)}
	_, _ = rand.Read(k.Secret) // crypto/rand.Read never returns an error (Go 1.24+)
	k.ID = "ephemeral-" + newID()
	b, _ := NewSeedBox(k) // a 32-byte key is always accepted
	return b
}

// Seal returns the sealed seed of game id (nonce ‖ ciphertext) and the id of
// the key that sealed it.
func (b *SeedBox) Seal(gameID string, seed games.Seed) ([]byte, string) {
	aead := b.aeads[b.current]
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(seed)+aead.Overhead())
	_, _ = rand.Read(nonce) // crypto/rand.Read never returns an error (Go 1.24+)
	return aead.Seal(nonce, nonce, seed[:], []byte(gameID)), b.current
}

// ErrSeedKey is returned when a seed was sealed with a key the box lacks.
var ErrSeedKey = errors.New("the seed was sealed with a key this service does not have")

// Open returns the seed of game id sealed by Seal.
func (b *SeedBox) Open(gameID, keyID string, sealed []byte) (games.Seed, error) {
	var seed games.Seed
	aead, ok := b.aeads[keyID]
	if !ok {
		return seed, fmt.Errorf("game %s: %w (key %q): add it to the service's seed keys", gameID, ErrSeedKey, keyID)
	}
	if len(sealed) < aead.NonceSize() {
		return seed, fmt.Errorf("game %s: the sealed seed is too short", gameID)
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], []byte(gameID))
	if err != nil || len(plain) != len(seed) {
		return seed, fmt.Errorf("game %s: the sealed seed does not open: it was altered or sealed for another game", gameID)
	}
	copy(seed[:], plain)
	return seed, nil
}
