package notify

import "github.com/courrier-games/courrier/notify/incoming"

// ReplyMarker is the first line of every mail a person may answer (a prompt,
// a refusal, an invitation, a lobby answer): what they write above it is
// their reply, and everything from it down is the quoted mail, which the
// inbound side (package incoming) cuts off even when a mail program quotes
// without ">".
const ReplyMarker = incoming.ReplyMarker
