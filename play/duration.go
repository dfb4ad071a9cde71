package play

import (
	"strconv"
	"strings"
	"time"
)

// MinDuration is the shortest duration ParseDuration reads: a deadline or
// an absence is at least an hour, whichever door it came through.
const MinDuration = time.Hour

// maxDurationDays bounds the durations ParseDuration reads (a game's own
// bounds, MaxDeadline and the absence bound, are checked where they
// apply); past about 106,000 days a duration would overflow.
const maxDurationDays = 3650

// ParseDuration reads a duration as every door writes it: a number of
// days, a Go duration of hours and minutes, or both ("3d", "36h", "2h30m",
// "1d12h", "2d 6h"), the units also as words in English or French ("3
// days", "3j", "3 jours", "36 heures"). It is at least MinDuration. Its error is a *Error
// (CodeInvalid) a person can read.
func ParseDuration(s string) (time.Duration, error) {
	text := durationUnits.Replace(strings.ToLower(strings.Join(strings.Fields(s), "")))
	bad := refuse(CodeInvalid, "refusal.duration", strings.TrimSpace(s))
	if text == "" {
		return 0, bad
	}
	const day = 24 * time.Hour
	var d time.Duration
	rest := text
	if days, after, ok := strings.Cut(text, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 || days[0] == '+' {
			return 0, bad
		}
		if n > maxDurationDays {
			return 0, tooLong(s)
		}
		d, rest = time.Duration(n)*day, after
	}
	if rest != "" {
		if rest[0] == '-' || rest[0] == '+' {
			return 0, bad
		}
		r, err := time.ParseDuration(rest)
		if err != nil {
			return 0, bad
		}
		if r > maxDurationDays*day {
			return 0, tooLong(s)
		}
		d += r
	}
	if d > maxDurationDays*day {
		return 0, tooLong(s)
	}
	if d < MinDuration {
		return 0, refuse(CodeInvalid, "refusal.duration_short", strings.TrimSpace(s))
	}
	return d, nil
}

// durationUnits writes the units of a duration as ParseDuration reads
// them: days as "d" ("3 days", "3 jours", "3j"), hours as "h" ("36
// hours", "36 heures").
var durationUnits = strings.NewReplacer(
	"days", "d", "day", "d", "jours", "d", "jour", "d", "j", "d",
	"hours", "h", "hour", "h", "heures", "h", "heure", "h",
)

func tooLong(s string) error {
	return refuse(CodeInvalid, "refusal.duration_long", strings.TrimSpace(s), maxDurationDays)
}
