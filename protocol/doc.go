// Package protocol serves nechecb's line-based engine protocol, specified in
// PROTOCOL.md, on a reader and a writer. It defines the small interface it
// needs from a searcher; the engine packages never import it.
package protocol
