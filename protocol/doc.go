// Package protocol serves nechecb's line-based engine protocol, specified in
// PROTOCOL.md, on a reader and a writer: the UCI-like dialect and the Hub
// dialect, the game the client set up, and the search running beside the
// command reader. It owns the generic option machinery (option kinds, the
// handshake lines, setoption and set-param, changes kept pending until
// isready, init or go, hidden options) but not the engine's options: the
// binary declares those, with their setters, in Config.Options. It defines
// the small Searcher interface it needs, in the types of internal/player,
// and the Book hook for opening books; it links no evaluator, and the engine
// packages never import it. Its sub-packages drive engines from the other
// side: client (one engine process) and match (matches between them).
package protocol
