// Package egdb owns nechecb's endgame databases: win/loss/draw tables for
// every position with few pieces, under the convention of Chinook, Cake and
// KingsRow (a side with no move loses, captures are compulsory, repetitions
// and the 40-move rule are ignored, so a cycle nobody can break is a draw).
//
// It holds every part of them that does not belong to the search:
//
//   - the slices (one per material: black men, black kings, white men, white
//     kings) and the combinatorial index of a position within its slice,
//     whose sizes count the placements without building them (index.go,
//     slices.go, iter.go);
//   - the builder, which solves the slices in dependency order by retrograde
//     analysis over the kings of each men configuration, in parallel, within
//     a memory budget, resumably, and derives mirror slices instead of
//     building them (build.go, solve.go, store.go);
//   - the file format: a checksummed header, a block index and blocks of
//     64Ki positions, run-length coded with capture positions left free to
//     lengthen the runs, then Huffman coded (format.go, encode.go, rle.go,
//     huffman.go; docs/egdb-format.md describes it);
//   - the probe: Open a directory (or OpenFS a file system, such as the
//     database compiled into the binary, package embedded), Probe a
//     position for its value, with a bounded cache of decoded blocks shared
//     by any number of goroutines (probe.go, cache.go);
//   - Verify (checksums and the consistency of every value with its
//     successors) and Stats (wins, losses and draws per slice).
//
// Squares inside the package are "packed": square s (1..32) is bit s-1 of a
// uint32. The engine's ghost-square bitboards are converted at the edges.
package egdb
