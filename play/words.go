package play

import (
	"embed"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/courrier-games/courrier/games"
)

//go:embed words/*.toml
var wordFiles embed.FS

// words is play's catalog (refusals, what the game's own events did, the
// reply verbs), in every language, over the words all games share; read
// once, never changed.
var words = games.GameCatalog(wordFiles, "words")

// Words is play's catalog, for the doors' catalog checks.
func Words() *games.Catalog { return words }

// phraseOf is what err says, as a phrase a refusal can place: a *Error's
// message, else err's English words.
func phraseOf(err error) games.Phrase {
	if pe, ok := errors.AsType[*Error](err); ok {
		return pe.Message
	}
	return games.Said(err.Error())
}

// durationText says d in days, hours and minutes ("3 days and 4 hours",
// "3 jours et 4 heures"), to the minute.
func durationText(d time.Duration) games.Text {
	d = d.Round(time.Minute)
	days, hours, minutes := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	var parts []any
	if days > 0 {
		parts = append(parts, games.T("duration.days", days))
	}
	if hours > 0 {
		parts = append(parts, games.T("duration.hours", hours))
	}
	if minutes > 0 || len(parts) == 0 {
		parts = append(parts, games.T("duration.minutes", minutes))
	}
	return games.List(parts...)
}

// whenText says the day and time of t, in t's location, as
// games.Words.When does: "Friday 28 November at 19:00", "vendredi 28
// novembre à 19 h 00".
func whenText(t time.Time) games.Text {
	day := games.T("date.day", games.T("date.weekday."+strconv.Itoa(int(t.Weekday()))), t.Day(), games.T("date.month."+strconv.Itoa(int(t.Month()))))
	return games.T("date.at", day, games.T("date.clock", fmt.Sprintf("%02d", t.Hour()), fmt.Sprintf("%02d", t.Minute())))
}
