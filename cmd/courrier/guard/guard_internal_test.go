package guard

import "testing"

// An IPv4 address is its own budget; an IPv6 address shares its /64's.
func TestClientKey(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"192.0.2.7:5123", "192.0.2.7"},
		{"[2001:db8:1:2:aaaa::1]:443", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:bbbb::9]:80", "2001:db8:1:2::/64"},
		{"[::ffff:192.0.2.7]:1", "::ffff:192.0.2.7"},
		{"not an address", "not an address"},
	} {
		if got := client(tc.remote); got != tc.want {
			t.Errorf("client(%q) = %q, want %q", tc.remote, got, tc.want)
		}
	}
}
