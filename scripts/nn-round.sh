#!/usr/bin/env bash
# One training round of the neural evaluator (docs/training.md):
#
#   1. data: self-play positions from the current default evaluator, with
#      the embedded 5-piece database settling the endings;
#   2. a fit that starts from the committed net (eval/nn/default.nn), or
#      from a seeded random net when none is committed yet;
#   3. a screen at a node budget, used only to discard a clearly worse net;
#   4. the gate: an SPRT against the current default at 0.1 s a move.
#
# When the gate accepts (or when no net is committed yet), the candidate,
# its note extended with the gate's line, is copied over eval/nn/default.nn;
# commit it with the line.
#
# Every step writes its result under the round's folder and is skipped when
# that result is there, so a stopped round goes on where it stopped: run
# the same command again. The screen and the gate record their games in
# the folder (screen.pdn, gate.pdn) and a stopped match goes on from them.
# Settings come from the environment:
#
#   ROUND      round number, names the folder rounds/ROUND (required)
#   SEED       datagen's seed (default 7000 + 100·ROUND)
#   POSITIONS  positions to generate (default 6000000)
#   NODES      the teacher's nodes a move in datagen (default 3000)
#   EPOCHS     training epochs (default 12: round 3's fits were still
#              improving at their last epoch; 12 gave c6)
#   WORKERS    workers for datagen and the fit (default 2)
#   SCREEN_GAMES the screen's most games (default 400)
#   GATE_GAMES the gate's most games (default 2000)
#   NATS       a NATS URL: datagen and the matches run on the fleet's
#              workers (docs/fleet.md) instead of here
#   NECHECB    the binary (default: built from this checkout to rounds/nechecb)
#   MORE_DATA  more positions files for the fit, comma-separated (earlier
#              rounds' data, when it is still on this machine)
#   TRAIN_ARGS more nn-train flags, such as "--layout stages=1,hidden=256"
set -euo pipefail
cd "$(dirname "$0")/.."

: "${ROUND:?set ROUND, the round number}"
SEED=${SEED:-$((7000 + 100 * ROUND))}
POSITIONS=${POSITIONS:-6000000}
NODES=${NODES:-3000}
EPOCHS=${EPOCHS:-12}
WORKERS=${WORKERS:-2}
SCREEN_GAMES=${SCREEN_GAMES:-400}
GATE_GAMES=${GATE_GAMES:-2000}
dir=rounds/$ROUND
mkdir -p "$dir"
log() { echo "== round $ROUND: $*" | tee -a "$dir/round.log"; }

if [ -z "${NECHECB:-}" ]; then
	NECHECB=rounds/nechecb
	go build -o "$NECHECB" ./cmd/nechecb
fi
fleet=()
if [ -n "${NATS:-}" ]; then
	fleet=(--nats "$NATS")
fi

# The default evaluator the data comes from and the gate plays against (the
# binary's Eval default, as its uci handshake gives it), and the committed
# net the fit starts from.
current=$(echo uci | "$NECHECB" protocol | sed -n 's/^option name Eval type string default //p')
if [ -z "$current" ]; then
	echo "nn-round: cannot read the default evaluator from $NECHECB's uci handshake" >&2
	exit 1
fi
init=()
if [ -s eval/nn/default.nn ]; then
	init=(--init eval/nn/default.nn)
fi

log "data (seed $SEED, $POSITIONS positions, from $current)"
resume=()
if [ -e "$dir/data.pos" ]; then
	resume=(--resume)
fi
"$NECHECB" datagen --out "$dir/data.pos" "${resume[@]}" --eval "$current" --db embedded \
	--nodes "$NODES" --random-plies 8 --seed "$SEED" --chunk 200 --workers "$WORKERS" \
	--positions "$POSITIONS" "${fleet[@]}" 2>&1 | tail -n 3 | tee -a "$dir/round.log"

if [ ! -e "$dir/candidate.nn" ]; then
	log "fit"
	# shellcheck disable=SC2086 # TRAIN_ARGS is a list of flags
	"$NECHECB" nn-train --data "$dir/data.pos${MORE_DATA:+,$MORE_DATA}" "${init[@]}" --out "$dir/candidate.nn" \
		--checkpoint "$dir/fit.ckpt" --resume --epochs "$EPOCHS" --workers "$WORKERS" \
		--plot "$dir/fit.svg" --compare "$current" \
		--remark "round $ROUND: datagen --eval $current --db embedded --nodes $NODES --random-plies 8 --seed $SEED" \
		${TRAIN_ARGS:-} 2>&1 | tee -a "$dir/fit.log"
fi

engines=(--engine "name=candidate cmd=\"$NECHECB protocol\" opts=DBPath=none;Eval=nn:$dir/candidate.nn"
	--engine "name=default cmd=\"$NECHECB protocol\" opts=DBPath=none;Eval=$current")

if [ ! -e "$dir/screen.txt" ]; then
	log "screen at 100000 nodes a move (discards only)"
	"$NECHECB" match "${engines[@]}" --openings 3move --random --seed "$SEED" --rounds 8 \
		--games "$SCREEN_GAMES" --nodes 100000 --concurrency "$WORKERS" "${fleet[@]}" \
		--sprt "elo0=-40 elo1=0 alpha=0.05 beta=0.05" --pdn "$dir/screen.pdn" --resume | tee "$dir/screen.tmp"
	mv "$dir/screen.tmp" "$dir/screen.txt"
fi
if grep -q "H0 accepted" "$dir/screen.txt"; then
	log "the screen says the candidate is at least 40 Elo weaker: discarded"
	exit 1
fi

if [ ! -e "$dir/gate.txt" ]; then
	log "gate at --tc 0.1+0.1"
	"$NECHECB" match "${engines[@]}" --openings 3move --random --seed "$((SEED + 1))" --rounds 8 \
		--games "$GATE_GAMES" --tc 0.1+0.1 --timemargin 50 --concurrency "$WORKERS" "${fleet[@]}" \
		--sprt "elo0=0 elo1=10 alpha=0.05 beta=0.05" --pdn "$dir/gate.pdn" --resume | tee "$dir/gate.tmp"
	mv "$dir/gate.tmp" "$dir/gate.txt"
fi
line=$(grep -E "^candidate vs default" "$dir/gate.txt" | tail -n 1)
sprt=$(grep -E "^SPRT" "$dir/gate.txt" | tail -n 1)
log "gate: $line / $sprt"
if [[ "$sprt" == *"H1 accepted"* ]] || [ ! -s eval/nn/default.nn ]; then
	"$NECHECB" nn-train --annotate "$dir/candidate.nn" --out eval/nn/default.nn \
		--remark "round $ROUND gate against $current (--tc 0.1+0.1, elo0=0 elo1=10): $line; $sprt"
	log "written to eval/nn/default.nn: commit it"
else
	log "not adopted"
fi
