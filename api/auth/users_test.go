package auth_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/migrations/pgtest"
)

func TestUsersKeepAddressesOutOfIDs(t *testing.T) {
	ctx := context.Background()
	users := auth.NewUsers(pgtest.New(t))
	ana, err := users.Ensure(ctx, "Ana.Lima@Example.ORG")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ana.ID, "@") || strings.Contains(strings.ToLower(ana.ID), "ana") || !strings.HasPrefix(ana.ID, "u") {
		t.Fatalf("user id %q is not opaque", ana.ID)
	}
	if ana.Email != "Ana.Lima@example.org" {
		t.Fatalf("address stored as %q, want the domain in lower case", ana.Email)
	}
	again, err := users.Ensure(ctx, "ana.lima@example.org")
	if err != nil || again.ID != ana.ID {
		t.Fatalf("the same address in another case made another account: %+v, %v", again, err)
	}
	if err := users.ChangeEmail(ctx, ana.ID, "ana@example.net"); err != nil {
		t.Fatal(err)
	}
	if got, err := users.ByID(ctx, ana.ID); err != nil || got.Email != "ana@example.net" {
		t.Fatalf("after a change of address: %+v, %v", got, err)
	}
	if err := users.Erase(ctx, ana.ID); err != nil {
		t.Fatal(err)
	}
	got, err := users.ByID(ctx, ana.ID)
	if err != nil || got.Email != "" {
		t.Fatalf("an erased account still has an address: %+v, %v", got, err)
	}
	if _, err := users.ByEmail(ctx, "ana@example.net"); !errors.Is(err, auth.ErrNoUser) {
		t.Fatalf("an erased address still finds its account: %v", err)
	}
	for _, bad := range []string{"", "ana", "Ana <ana@example.org>", "@example.org"} {
		if _, err := users.Ensure(ctx, bad); err == nil {
			t.Errorf("Ensure(%q) made an account", bad)
		}
	}
}
