package api

import (
	"context"
	"embed"

	"github.com/labstack/echo/v4"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
)

//go:embed words/*.toml
var wordFiles embed.FS

// words is the API's catalog (its own error messages and texts), over the
// words all games share; read once, never changed.
var words = games.GameCatalog(wordFiles, "words")

// Words is the API's catalog, for catalog checks.
func Words() *games.Catalog { return words }

// say says key of the API's catalog with args in lang.
func say(lang, key string, args ...any) string {
	return words.In(lang).Must(games.T(key, args...))
}

// The caller's language: the signed-in user's setting, else the request's
// Accept-Language, else English (auth.ChooseLanguage, decision 5). Every
// error message and every text of a body is written in it; codes, rule
// ids and notation never change. Each answer says it in Content-Language.

// langKey is the request context's key of the caller's language.
type langKey struct{}

// callerLang is what the request says of the caller's language.
type callerLang struct {
	lang string // the language to answer in
	// accepted is the language the Accept-Language header chose; "" when
	// it chose none.
	accepted string
}

// langOf is the language to answer the request of ctx in (English when
// nothing chose one).
func langOf(ctx context.Context) string {
	if l, ok := ctx.Value(langKey{}).(callerLang); ok && l.lang != "" {
		return l.lang
	}
	return games.English
}

// acceptedOf is the language the request's Accept-Language chose, "" for
// none.
func acceptedOf(ctx context.Context) string {
	l, _ := ctx.Value(langKey{}).(callerLang)
	return l.accepted
}

// language chooses the language of a request from its Accept-Language
// (authenticate then puts the user's setting first) and says it in
// Content-Language.
func language(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		header := c.Request().Header.Get("Accept-Language")
		l := callerLang{lang: auth.ChooseLanguage("", "", header)}
		if a, ok := games.AcceptLanguage(header); ok {
			l.accepted = a
		}
		setLanguage(c, l)
		return next(c)
	}
}

// setLanguage makes l the request's language and the answer's
// Content-Language.
func setLanguage(c echo.Context, l callerLang) {
	c.SetRequest(c.Request().WithContext(context.WithValue(c.Request().Context(), langKey{}, l)))
	c.Response().Header().Set("Content-Language", l.lang)
}

// useSetting puts the signed-in user's language setting (empty: none)
// before the request's Accept-Language.
func useSetting(c echo.Context, setting string) {
	if setting == "" {
		return
	}
	l, _ := c.Request().Context().Value(langKey{}).(callerLang)
	l.lang = auth.ChooseLanguage(setting, "", c.Request().Header.Get("Accept-Language"))
	setLanguage(c, l)
}
