// Package layering holds no code. Its test checks with go list that the
// module's imports point downward only: the rules (engine) below the
// evaluators (eval), both below training (train), the match runner (match),
// the protocol server and the front ends, and the binary (cmd) above all,
// linking every evaluator.
package layering
