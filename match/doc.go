// Package match runs engine-versus-engine matches: it schedules the games
// (round-robin or gauntlet, each opening twice with colours reversed), plays
// them with engine/play's game loop, the engines driven through
// protocol/client and the runner keeping the clocks, restarts and
// adjudication, records every game to a PDN file as soon as it ends, and
// keeps the statistics (through internal/elo: Elo with its confidence
// interval from the game pairs, LOS, pentanomial SPRT) and an SVG chart of
// the Elo estimate.
package match
