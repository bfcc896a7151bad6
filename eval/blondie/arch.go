// Package blondie owns the Blondie24 networks of Chellapilla and Fogel, per
// docs/blondie24.md: the 1999 network (32 inputs, 40 and 10 tanh
// nodes, a tanh output) and the 2001 network (a spatial layer of 91 tanh
// nodes over the square sub-boards of side 3..8, then 40, 10 and 1), both
// with the evolvable king value K and the piece-difference link into the
// output; the "blondie24 v1" text file (reading and atomic writing); the
// paper's random initialisation; and the "blondie" evaluator kind.
//
// # Spec string
//
//	blondie:PATH   the network in the blondie24 v1 file at PATH
//	blondie:RUN    a run folder of nechecb evolve blondie: the best network
//	               of its last complete generation (RUN/best/NNNN.txt)
//
// # Value and score scale
//
// Raw is the output node's tanh, in (-1, 1), for the side to move; training
// scores a won position +1 and a lost one -1. Evaluate maps it linearly with
// ScorePerUnit, so +1 is 2000 points: more than a whole side's material
// (12 men, 1200), and well inside ±eval.ScoreLimit.
package blondie

import "fmt"

// ScorePerUnit converts Raw to the engine's scale (100 = one man).
const ScorePerUnit = 2000

// Arch is a network architecture, named by the year of its paper.
type Arch int

const (
	// Arch1999 is 32 inputs, 40 tanh, 10 tanh, 1 tanh output.
	Arch1999 Arch = 1999
	// Arch2001 adds a spatial layer of 91 tanh nodes, one per square
	// sub-board of side 3..8, before 40, 10 and 1.
	Arch2001 Arch = 2001
)

// Inputs is the number of inputs: one per playable square.
const Inputs = 32

// layerSizes lists the node counts of the computing layers of each arch.
func (a Arch) layerSizes() []int {
	switch a {
	case Arch1999:
		return []int{40, 10, 1}
	case Arch2001:
		return []int{len(subBoards), 40, 10, 1}
	}
	return nil
}

// NumWeights returns the number of weights of the architecture, biases
// included and the piece-difference weight not: 1741 for 1999 and 5046 for
// 2001. It returns 0 for an unknown arch.
func (a Arch) NumWeights() int {
	sizes := a.layerSizes()
	if sizes == nil {
		return 0
	}
	n, prev := 0, Inputs
	if a == Arch2001 {
		n, prev = spatialWeights, sizes[0]
		sizes = sizes[1:]
	}
	for _, s := range sizes {
		n += s * (prev + 1)
		prev = s
	}
	return n
}

// Valid reports whether a is a known architecture.
func (a Arch) Valid() bool { return a.layerSizes() != nil }

// String writes the architecture as its year, "1999" or "2001".
func (a Arch) String() string { return fmt.Sprint(int(a)) }

// subBoards lists, for each spatial node of the 2001 network in order (by
// side N = 3..8, then top row, then left column), the inputs it sees in
// ascending square order.
var subBoards [][]int

// spatialWeights is the number of weights of the spatial layer, biases
// included (945).
var spatialWeights int

func init() {
	for n := 3; n <= 8; n++ {
		for r := 0; r+n <= 8; r++ {
			for c := 0; c+n <= 8; c++ {
				var inputs []int
				for row := r; row < r+n; row++ {
					for col := c; col < c+n; col++ {
						if (row+col)%2 == 1 {
							inputs = append(inputs, 4*row+col/2) // square - 1
						}
					}
				}
				subBoards = append(subBoards, inputs)
				spatialWeights += 1 + len(inputs)
			}
		}
	}
}
