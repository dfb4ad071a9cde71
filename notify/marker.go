package notify

// ReplyMarker is the first line of every mail a person may answer (a prompt,
// a refusal, an invitation, a lobby answer): what they write above it is
// their reply, and everything from it down is the quoted mail, which the
// inbound side cuts off even when a mail program quotes without ">".
const ReplyMarker = "## Reply above this line ##"
