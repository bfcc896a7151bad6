package eval

import "math"

// ScoreFromFloat rounds x, a value already on the engine's scale (100 = one
// man), to the nearest integer and clamps it to ±ScoreLimit. NaN gives 0.
// Evaluators with a real-valued model use it to turn a scaled raw value into
// a score without overflowing the integer conversion.
func ScoreFromFloat(x float64) int {
	if x != x {
		return 0
	}
	return int(math.Round(math.Max(-ScoreLimit, math.Min(ScoreLimit, x))))
}
