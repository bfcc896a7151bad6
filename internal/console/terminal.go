package console

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/peterh/liner"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/internal/session"
	"github.com/nechecb/nechecb/internal/term"
)

// Options are the console's command-line settings.
type Options struct {
	// ASCII draws the pieces in ASCII even when the terminal shows Unicode.
	ASCII bool
	// Flip starts with the board seen from Black's side.
	Flip bool
	// Numeric shows moves in numeric notation.
	Numeric bool
	// Eval is the default evaluator spec; the binary passes its own, so
	// that the console links no evaluator itself.
	Eval string
	// HistoryFile is where the line history is kept ("": the default in the
	// user's config or cache directory; "-": nowhere).
	HistoryFile string
	// FEN is the position to start from ("": the standard start position).
	FEN string
	// Settings are the engine's options given on the command line, each a
	// name and a value, put in force in this order (SettingFlags).
	Settings [][2]string
}

// Run runs the console on the terminal (or on redirected stdin, without line
// editing) and returns the exit status: 0, or 2 for a bad option.
func Run(opts Options) int {
	if opts.Eval == "" {
		fmt.Fprintln(os.Stderr, "nechecb console: no evaluator spec given")
		return 2
	}
	var start *engine.Position
	if opts.FEN != "" {
		pos, err := engine.ParseFEN(opts.FEN)
		if err != nil {
			fmt.Fprintf(os.Stderr, "nechecb console: --fen: %v\n", err)
			return 2
		}
		start = &pos
	}
	sess, err := session.New(session.Config{Defaults: map[string]string{"Eval": opts.Eval}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "nechecb console: %v\n", err)
		return 2
	}
	for _, o := range opts.Settings {
		notes, err := sess.Set(o[0], o[1])
		if err != nil {
			fmt.Fprintf(os.Stderr, "nechecb console: --%s: %v\n", FlagName(o[0]), err)
			return 2
		}
		for _, n := range notes {
			fmt.Fprintf(os.Stderr, "nechecb console: --%s: %s\n", FlagName(o[0]), n)
		}
	}
	sess.Ready()

	line := liner.NewLiner()
	defer line.Close()
	line.SetCtrlCAborts(true)
	line.SetTabCompletionStyle(liner.TabPrints)
	history := historyPath(opts.HistoryFile)
	if history != "" {
		if hf, err := os.Open(history); err == nil {
			line.ReadHistory(hf)
			hf.Close()
		}
	}

	// Outside the prompt Ctrl-C raises SIGINT: it stops a search.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	interrupts := make(chan struct{}, 1)
	go func() {
		for range sigs {
			select {
			case interrupts <- struct{}{}:
			default:
			}
		}
	}()

	s := NewSession(Config{
		In: linerReader{l: line, echo: !term.IsTerminal(os.Stdin)}, Out: os.Stdout, Engine: sess.Engine(), Settings: sess, Interrupts: interrupts,
		Style:   Style{ASCII: opts.ASCII || !unicodeTerminal(), Flip: opts.Flip, Color: colorWanted()},
		Numeric: opts.Numeric, Start: start,
	})
	line.SetWordCompleter(s.Complete)
	code := s.Loop()
	if history != "" {
		if err := saveHistory(line, history); err != nil {
			fmt.Fprintf(os.Stderr, "nechecb console: history not saved: %v\n", err)
		}
	}
	return code
}

// linerReader adapts liner to LineReader. When stdin is not a terminal it
// echoes each line read after its prompt, so that a transcript reads well.
type linerReader struct {
	l    *liner.State
	echo bool
}

func (r linerReader) Prompt(p string) (string, error) {
	line, err := r.l.Prompt(p)
	if errors.Is(err, liner.ErrPromptAborted) {
		return "", ErrInterrupted
	}
	if err == nil && r.echo {
		fmt.Println(line)
	}
	return line, err
}

func (r linerReader) AppendHistory(line string) { r.l.AppendHistory(line) }

// historyPath returns the history file: the one asked for, or
// nechecb/console_history in the user's config directory (the cache
// directory when there is none); "" for no history.
func historyPath(asked string) string {
	switch asked {
	case "-":
		return ""
	case "":
	default:
		return asked
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		if dir, err = os.UserCacheDir(); err != nil {
			return ""
		}
	}
	dir = filepath.Join(dir, "nechecb")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ""
	}
	return filepath.Join(dir, "console_history")
}

// saveHistory writes the history through a temporary file renamed into place.
func saveHistory(line *liner.State, path string) error {
	return fileio.WriteAtomicFunc(path, func(w io.Writer) error {
		_, err := line.WriteHistory(w)
		return err
	})
}

// colorWanted reports whether stdout is a terminal and NO_COLOR is unset.
func colorWanted() bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	return term.IsTerminal(os.Stdout)
}

// unicodeTerminal guesses whether the terminal shows Unicode: a UTF-8 locale
// on a terminal other than the Linux console or a dumb one.
func unicodeTerminal() bool {
	if runtime.GOOS == "windows" {
		return true
	}
	switch os.Getenv("TERM") {
	case "dumb", "linux", "vt100", "vt220":
		return false
	}
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if val := os.Getenv(v); val != "" {
			val = strings.ToLower(val)
			return strings.Contains(val, "utf-8") || strings.Contains(val, "utf8")
		}
	}
	return false
}
