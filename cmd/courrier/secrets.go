package main

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/courrier-games/courrier/play"
)

// The service's secrets live in <data dir>/secrets, a directory of mode
// 0700, one file of mode 0600 per key, named <purpose>-<key id>.key and
// holding 32 random bytes in base64. A key is created on first start when
// its purpose has none, with O_EXCL so that two processes starting at once
// never overwrite each other's key. The key with the greatest id signs or
// seals; the others still verify or open, so a key rotates by adding a file
// with a later id (`courrier secrets rotate <purpose>` does it) and removing
// the old one once nothing it signed is still in use.
const secretsDir = "secrets"

// Key purposes.
const (
	keyJWT      = "jwt"      // session and API tokens
	keyReply    = "reply"    // reply-address tokens of prompt emails
	keySeed     = "seed"     // seals game seeds in the database
	keyDatabase = "database" // the password of the service's login role (zero-config modes)
	keyPostgres = "postgres" // the superuser's password of the embedded server
)

// keyFile is one key read from the secrets directory.
type keyFile struct {
	id     string
	secret []byte
}

// secretsPath returns <dataDir>/secrets, created with mode 0700 when
// missing; a directory others can read is refused.
func secretsPath(dataDir string) (string, error) {
	dir := filepath.Join(dataDir, secretsDir)
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", fmt.Errorf("create the data directory %s: %w", dataDir, err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", dir, err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s is open to other users (mode %v): make it 0700 (chmod 700 %s)", dir, info.Mode().Perm(), dir)
	}
	return dir, nil
}

// loadKeys returns the keys of purpose, the current one (greatest id) first,
// creating one when there is none.
func loadKeys(dataDir, purpose string) ([]keyFile, error) {
	dir, err := secretsPath(dataDir)
	if err != nil {
		return nil, err
	}
	keys, err := readKeys(dir, purpose)
	if err != nil {
		return nil, err
	}
	if len(keys) > 0 {
		return keys, nil
	}
	if _, err := newKey(dir, purpose); err != nil {
		return nil, err
	}
	return readKeys(dir, purpose)
}

func readKeys(dir, purpose string) ([]keyFile, error) {
	names, err := filepath.Glob(filepath.Join(dir, purpose+"-*.key"))
	if err != nil {
		return nil, fmt.Errorf("list the %s keys: %w", purpose, err)
	}
	var keys []keyFile
	for _, name := range names {
		info, err := os.Stat(name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		if info.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("%s is readable by other users (mode %v): make it 0600", name, info.Mode().Perm())
		}
		raw, err := os.ReadFile(name) //nolint:gosec // G304: a file of our own secrets directory
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		secret, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(raw)))
		if err != nil || len(secret) != 32 {
			return nil, fmt.Errorf("%s does not hold 32 bytes in base64", name)
		}
		id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(name), purpose+"-"), ".key")
		keys = append(keys, keyFile{id: id, secret: secret})
	}
	slices.SortFunc(keys, func(a, b keyFile) int { return strings.Compare(b.id, a.id) })
	return keys, nil
}

// newKey writes a fresh key of purpose with an id later than any before
// (the UTC time and a random suffix) and returns its id.
func newKey(dir, purpose string) (string, error) {
	secret := make([]byte, 32)
	_, _ = rand.Read(secret) // crypto/rand.Read never returns an error (Go 1.24+)
	suffix := make([]byte, 3)
	_, _ = rand.Read(suffix)
	id := fmt.Sprintf("%s-%x", time.Now().UTC().Format("20060102T150405Z"), suffix)
	name := filepath.Join(dir, purpose+"-"+id+".key")
	// Written whole under a temporary name, then linked to its name, which
	// fails if the name exists: no process ever reads a half-written key.
	tmp, err := os.CreateTemp(dir, ".new-"+purpose+"-*")
	if err != nil {
		return "", fmt.Errorf("create the %s key: %w", purpose, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() //nolint:gosec // G703: a name CreateTemp made in our own directory; linked or not, it goes
	_, werr := tmp.WriteString(base64.StdEncoding.EncodeToString(secret) + "\n")
	if serr := tmp.Sync(); werr == nil {
		werr = serr
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return "", fmt.Errorf("write the %s key: %w", purpose, werr)
	}
	if err := os.Link(tmp.Name(), name); err != nil {
		return "", fmt.Errorf("create the %s key: %w", purpose, err)
	}
	return id, nil
}

// seedBox returns the box sealing game seeds with the data directory's seed
// keys.
func seedBox(dataDir string) (*play.SeedBox, error) {
	keys, err := loadKeys(dataDir, keySeed)
	if err != nil {
		return nil, err
	}
	seedKeys := make([]play.SeedKey, len(keys))
	for i, k := range keys {
		seedKeys[i] = play.SeedKey{ID: k.id, Secret: k.secret}
	}
	return play.NewSeedBox(seedKeys[0], seedKeys[1:]...)
}

// keyPassword returns the current key of purpose as a password (base64url):
// keyDatabase for the service's login role in the zero-config modes,
// keyPostgres for the embedded server's superuser.
func keyPassword(dataDir, purpose string) (string, error) {
	keys, err := loadKeys(dataDir, purpose)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(keys[0].secret), nil
}

// ensureSecrets creates every key the service needs on first start.
func ensureSecrets(dataDir string) error {
	for _, purpose := range []string{keyJWT, keyReply, keySeed, keyDatabase} {
		if _, err := loadKeys(dataDir, purpose); err != nil {
			return err
		}
	}
	return nil
}

// rotateKey adds a new current key of purpose and returns its id.
func rotateKey(dataDir, purpose string) (string, error) {
	if !slices.Contains([]string{keyJWT, keyReply, keySeed}, purpose) {
		return "", usageError{msg: fmt.Sprintf("a key purpose is one of %s, %s, %s", keyJWT, keyReply, keySeed)}
	}
	dir, err := secretsPath(dataDir)
	if err != nil {
		return "", err
	}
	return newKey(dir, purpose)
}
