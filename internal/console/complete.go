package console

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

// argWords are the fixed words some commands take.
var argWords = map[string][]string{
	"play":     {"white", "black", "both", "none"},
	"notation": {"algebraic", "numeric"},
	"level":    {"depth", "time", "movetime"},
}

// Complete is the tab completion, in the form liner's WordCompleter wants:
// the line up to the cursor is split into head and the word being typed, and
// the candidates replace that word. The first word completes to command
// names and legal moves; later words to a command's arguments (sides,
// notations, levels, evaluator kinds, file names) or, after moves, to the
// legal moves of the position those moves reach. Moves are offered in the
// notation being typed: numeric after a digit, algebraic after a letter, the
// chosen notation on an empty word.
func (s *Session) Complete(line string, pos int) (head string, completions []string, tail string) {
	if pos < 0 || pos > len(line) {
		pos = len(line)
	}
	before, tail := line[:pos], line[pos:]
	start := strings.LastIndexAny(before, " \t") + 1
	head, word := before[:start], before[start:]
	prev := strings.Fields(head)
	lower := strings.ToLower(word)
	switch {
	case len(prev) == 0:
		for _, c := range commands {
			if strings.HasPrefix(c.name, lower) {
				completions = append(completions, c.name)
			}
		}
		cur := s.game.Current()
		completions = append(completions, s.completeMove(&cur, word)...)
	case findCommand(prev[0]) != nil:
		completions = s.completeArgs(findCommand(prev[0]).name, prev[1:], word)
	default:
		pos := s.game.Current()
		for _, w := range prev {
			m, err := pos.ParseMove(w)
			if err != nil {
				return head, nil, tail
			}
			pos = pos.Play(m)
		}
		completions = s.completeMove(&pos, word)
	}
	return head, completions, tail
}

// completeArgs completes the argument after the command's earlier args.
func (s *Session) completeArgs(cmd string, args []string, word string) []string {
	var choices []string
	switch {
	case cmd == "load" && len(args) == 0 || cmd == "save" && len(args) == 0:
		return completeFile(word)
	case cmd == "eval" && len(args) == 0:
		choices = eval.Kinds()
	case cmd == "help" && len(args) == 0:
		for _, c := range commands {
			choices = append(choices, c.name)
		}
	case len(args) == 0:
		choices = argWords[cmd]
	}
	var out []string
	for _, c := range choices {
		if strings.HasPrefix(c, strings.ToLower(word)) {
			out = append(out, c)
		}
	}
	return out
}

// completeMove returns the legal moves of pos that fit the typed prefix, in
// the notation it is typed in. A prefix fits a move when the move's full
// path starts with it, or when it does once the separators are left out of
// both (so "c3e" finds "c3xe5"), or when the start and end squares alone
// start with it (so "f2f6" finds "f2xd4xf6"; for numeric moves the short
// form "from x to", so "9x2" finds "9x18x27").
func (s *Session) completeMove(pos *engine.Position, word string) []string {
	numeric := s.cfg.Numeric
	if word != "" {
		numeric = word[0] >= '0' && word[0] <= '9'
	}
	lower := strings.ToLower(word)
	var out []string
	for _, m := range pos.LegalMoves() {
		var name string
		var fits bool
		if numeric {
			name = m.String()
			short := strconv.Itoa(m.FromSquare()) + "x" + strconv.Itoa(m.ToSquare())
			fits = strings.HasPrefix(name, lower) || strings.HasPrefix(short, strings.ReplaceAll(lower, "-", "x"))
		} else {
			name = m.Algebraic()
			ends := engine.SquareName(m.FromSquare()) + engine.SquareName(m.ToSquare())
			fits = strings.HasPrefix(name, lower) || strings.HasPrefix(compact(name), compact(lower)) ||
				strings.HasPrefix(ends, compact(lower))
		}
		if fits {
			out = append(out, name)
		}
	}
	return out
}

// compact leaves the separators out of an algebraic move.
func compact(move string) string {
	return strings.NewReplacer("x", "", "-", "", ":", "").Replace(move)
}

// completeFile completes a file name: directories and PDN files.
func completeFile(word string) []string {
	matches, _ := filepath.Glob(word + "*")
	var out []string
	for _, m := range matches {
		info, err := os.Stat(m)
		switch {
		case err != nil:
		case info.IsDir():
			out = append(out, m+string(filepath.Separator))
		case strings.EqualFold(filepath.Ext(m), ".pdn"):
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}
