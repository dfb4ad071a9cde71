package notify

import (
	"testing"

	"github.com/emersion/go-msgauth/authres"
)

func TestSameMailbox(t *testing.T) {
	for _, tc := range []struct {
		envelope, from string
		same           bool
		how            string
	}{
		{"ana@example.org", "ana@example.org", true, ""},
		{"<ana@example.org>", "ana@example.org", true, ""},
		{"Ana@EXAMPLE.org.", "ana@example.org", true, ""},
		{"ana+games@example.org", "ana@example.org", true, "subaddress"},
		{"ana@example.org", "ana+x@example.org", true, "subaddress"},
		{"ana@bücher.example", "ana@xn--bcher-kva.example", true, ""},
		{"SRS0=HHH=TT=example.org=ana@fwd.example", "ana@example.org", true, "SRS via fwd.example"},
		{"srs0+HHH=TT=example.org=a=b@fwd.example", "a=b@example.org", true, "SRS via fwd.example"},
		{"SRS1=HHH=first.example==HHH=TT=example.org=ana@fwd.example", "ana@example.org", true, "SRS via fwd.example"},
		{"SRS0=HHH=TT=example.org=ana+x@fwd.example", "ana@example.org", true, "SRS via fwd.example, subaddress"},
		{"SRS0=HHH=TT=elsewhere.org=ana@fwd.example", "ana@example.org", false, ""},
		{"bob@example.org", "ana@example.org", false, ""},
		{"ana@example.com", "ana@example.org", false, ""},
		{"ana@sub.example.org", "ana@example.org", false, ""},
		{"+@example.org", "ana@example.org", false, ""},
		{"ana", "ana@example.org", false, ""},
		{"", "ana@example.org", false, ""},
		{"SRS0=broken@fwd.example", "ana@example.org", false, ""},
	} {
		same, how := sameMailbox(tc.envelope, tc.from)
		if same != tc.same || how != tc.how {
			t.Errorf("sameMailbox(%q, %q) = %v, %q; want %v, %q", tc.envelope, tc.from, same, how, tc.same, tc.how)
		}
	}
}

func TestTrustedAuthenticationResults(t *testing.T) {
	for _, tc := range []struct {
		name, values string
		found        bool
		dmarc        authres.ResultValue
	}{
		{"none", "", false, ""},
		{"another id only", "mx.elsewhere.test; dmarc=fail", false, ""},
		{"the topmost of the trusted id", "mx.elsewhere.test; dmarc=pass\nMX.Trusted.Test; dmarc=fail\nmx.trusted.test; dmarc=pass", true, authres.ResultFail},
		{"comments and a version", "mx.trusted.test (Postfix) 1; spf=pass (sender; ok) smtp.mailfrom=a.test; dmarc=pass (p=none) header.from=a.test", true, authres.ResultPass},
		{"a semicolon in a quoted reason", `mx.trusted.test; dkim=fail reason="bad; key" header.d=a.test; dmarc=fail header.from=a.test`, true, authres.ResultFail},
		{"an unknown version", "mx.trusted.test 2; dmarc=fail", false, ""},
		{"no dmarc", "mx.trusted.test; spf=pass smtp.mailfrom=a.test", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			results, found := trustedResults(tc.values, "mx.trusted.test")
			var dmarc authres.ResultValue
			for _, r := range results {
				if d, ok := r.(*authres.DMARCResult); ok {
					dmarc = d.Value
				}
			}
			if found != tc.found || dmarc != tc.dmarc {
				t.Errorf("found %v dmarc %q (%#v), want %v %q", found, dmarc, results, tc.found, tc.dmarc)
			}
		})
	}
}
