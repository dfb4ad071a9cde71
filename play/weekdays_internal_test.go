package play

import (
	"testing"
	"time"
)

// Deadlines that run on chosen weekdays only skip the other days whole.
func TestDeadlinesRunOnChosenWeekdaysOnly(t *testing.T) {
	workdays, err := ParseWeekdays([]string{"Mon", "tue", "wed", "thursday", "fri"})
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		t.Helper()
		v, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		name  string
		start string
		d     time.Duration
		days  []time.Weekday
		want  string
	}{
		{"every day", "2026-11-27 18:00", 72 * time.Hour, nil, "2026-11-30 18:00"},                       // Friday → Monday
		{"workdays over a weekend", "2026-11-27 18:00", 72 * time.Hour, workdays, "2026-12-02 18:00"},    // Friday 18:00 → Wednesday
		{"started on a Saturday", "2026-11-28 10:00", 24 * time.Hour, workdays, "2026-12-01 00:00"},      // Monday whole
		{"within a day", "2026-11-30 09:00", 6 * time.Hour, workdays, "2026-11-30 15:00"},                // Monday
		{"ends at midnight of Friday", "2026-11-27 00:00", 24 * time.Hour, workdays, "2026-11-28 00:00"}, // Friday whole
	}
	for _, c := range cases {
		if got := addOn(at(c.start), c.d, c.days); !got.Equal(at(c.want)) {
			t.Errorf("%s: %s + %v = %v, want %s", c.name, c.start, c.d, got, c.want)
		}
	}
	if _, err := ParseWeekdays([]string{"someday"}); err == nil {
		t.Error("someday was taken for a weekday")
	}
}
