package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Replays, audit reports, game records and disputes (the records tag).

// convert moves a play value into its API model through JSON: the two
// share their field names by design. Every phrase of the value (what
// happened, a result's summary: games.Phrase, which JSON writes in every
// language) is written as one string in lang.
func convert[T any](v any, lang string) (T, error) {
	var out T
	b, err := json.Marshal(v)
	if err != nil {
		return out, fmt.Errorf("encode %T: %w", v, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return out, fmt.Errorf("decode %T: %w", v, err)
	}
	if b, err = json.Marshal(sayPhrases(tree, lang)); err != nil {
		return out, fmt.Errorf("encode %T: %w", v, err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return out, fmt.Errorf("decode %T: %w", out, err)
	}
	return out, nil
}

// sayPhrases replaces, in a decoded JSON value, each phrase (an object
// whose keys are exactly games.Languages, each a string: how
// games.Phrase writes itself) by its words in lang.
func sayPhrases(v any, lang string) any {
	switch x := v.(type) {
	case map[string]any:
		if said, ok := phraseIn(x, lang); ok {
			return said
		}
		for k, e := range x {
			x[k] = sayPhrases(e, lang)
		}
	case []any:
		for i, e := range x {
			x[i] = sayPhrases(e, lang)
		}
	}
	return v
}

// phraseIn is m's words in lang when m is a phrase.
func phraseIn(m map[string]any, lang string) (string, bool) {
	langs := games.Languages()
	if len(m) != len(langs) {
		return "", false
	}
	for _, l := range langs {
		if _, ok := m[l].(string); !ok {
			return "", false
		}
	}
	if s, ok := m[lang].(string); ok {
		return s, true
	}
	return m[games.English].(string), true
}

// GetReplay returns the game at one version as the caller's seat saw it.
func (s *Server) GetReplay(ctx context.Context, req GetReplayRequestObject) (GetReplayResponseObject, error) {
	version := 0
	if req.Params.Version != nil {
		version = *req.Params.Version
	}
	step, latest, err := s.cfg.Archive.ReplayAt(ctx, req.GameId, userOf(ctx), version)
	if err != nil {
		return nil, err
	}
	out, err := convert[ReplayStep](step, langOf(ctx))
	if err != nil {
		return nil, err
	}
	out.Latest = latest
	return GetReplay200JSONResponse(out), nil
}

// GetAudit returns the audit report of a finished game.
func (s *Server) GetAudit(ctx context.Context, req GetAuditRequestObject) (GetAuditResponseObject, error) {
	rep, err := s.cfg.Archive.AuditFor(ctx, req.GameId, userOf(ctx))
	if err != nil {
		return nil, err
	}
	out, err := convert[AuditReport](rep, langOf(ctx))
	if err != nil {
		return nil, err
	}
	return GetAudit200JSONResponse(out), nil
}

// GetRecord returns the game's record as the caller may have it.
func (s *Server) GetRecord(ctx context.Context, req GetRecordRequestObject) (GetRecordResponseObject, error) {
	var b bytes.Buffer
	if err := s.cfg.Archive.RecordFor(ctx, &b, req.GameId, userOf(ctx)); err != nil {
		return nil, err
	}
	return GetRecord200TextResponse(b.String()), nil
}

// ListDisputes lists the game's disputes.
func (s *Server) ListDisputes(ctx context.Context, req ListDisputesRequestObject) (ListDisputesResponseObject, error) {
	ds, referee, err := s.cfg.Play.DisputesOf(ctx, req.GameId, userOf(ctx))
	if err != nil {
		return nil, err
	}
	items, err := convert[[]Dispute](ds, langOf(ctx))
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = []Dispute{}
	}
	return ListDisputes200JSONResponse{Items: items, Referee: referee}, nil
}

// dispute is the game's dispute recorded at version.
func (s *Server) dispute(ctx context.Context, gameID string, version int) (Dispute, error) {
	ds, _, err := s.cfg.Play.DisputesOf(ctx, gameID, userOf(ctx))
	if err != nil {
		return Dispute{}, err
	}
	for _, d := range ds {
		if d.Version == version {
			return convert[Dispute](d, langOf(ctx))
		}
	}
	return Dispute{}, fail(http.StatusNotFound, codeNotFound, "error.no_dispute", gameID, version)
}

// RaiseDispute flags a version of the game.
func (s *Server) RaiseDispute(ctx context.Context, req RaiseDisputeRequestObject) (RaiseDisputeResponseObject, error) {
	out, err := s.cfg.Play.DisputeMove(ctx, actor(ctx, ""), req.GameId, req.Body.Version, req.Body.Reason)
	if err != nil {
		return nil, err
	}
	d, err := s.dispute(ctx, req.GameId, out.Version)
	if err != nil {
		return nil, err
	}
	return RaiseDispute201JSONResponse(d), nil
}

// RuleDispute records the referee's ruling.
func (s *Server) RuleDispute(ctx context.Context, req RuleDisputeRequestObject) (RuleDisputeResponseObject, error) {
	_, err := s.cfg.Play.RuleDispute(ctx, actor(ctx, ""), req.GameId, req.Dispute, strings.ToLower(string(req.Body.Decision)), req.Body.Text)
	if err != nil {
		return nil, err
	}
	d, err := s.dispute(ctx, req.GameId, req.Dispute)
	if err != nil {
		return nil, err
	}
	return RuleDispute200JSONResponse(d), nil
}
