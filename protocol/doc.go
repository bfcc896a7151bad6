// Package protocol serves nechecb's line-based engine protocol, specified in
// PROTOCOL.md, on a reader and a writer: the UCI-like dialect and the Hub
// dialect, the engine options bound to one Settings value, the game the
// client set up, and the search running beside the command reader. It
// defines the small Searcher interface it needs (the engine's search
// satisfies it) and the BookProber hook for opening books; the engine
// packages never import it. Its sub-packages drive engines from the other
// side: client (one engine process) and match (matches between them).
package protocol
