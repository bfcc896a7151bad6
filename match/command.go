package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/internal/term"
)

// Job is a match as the match command gives it: the settings, the ones
// still in their text forms, and what to do around the games.
type Job struct {
	Config
	// TimeControl is BASE+INC in seconds (ParseTimeControl), or empty.
	TimeControl string
	// SPRT is the early stop's settings (ParseSPRT), or empty.
	SPRT string
	// Openings names the openings (LoadOpenings); Strict refuses a PDN
	// file that holds a bad game.
	Openings string
	Strict   bool
	// Plot, when set, is the SVG file the Elo curve is written to.
	Plot string
	// Quiet turns the progress line off.
	Quiet bool
	// Fleet, when set, is called once the settings are checked; it may set
	// the games to be played on a fleet (Config.Remote), and returns what
	// stops that fleet.
	Fleet func(ctx context.Context, c *Config) (stop func(), err error)
	// CheckFleet, when set, is called by Prepare with the checked
	// settings: it refuses a match the fleet could not play, before
	// anything starts.
	CheckFleet func(c *Config) error
	// Stdout takes the table, Stderr the progress line and the notes.
	Stdout, Stderr io.Writer
}

// ErrInterrupted is RunJob's error when an interrupt stopped the match
// before its last game; the notice went to Stderr already.
var ErrInterrupted = errors.New("match: interrupted")

// RunJob checks j (Prepare) and plays the match (Prepared.Run).
func RunJob(j Job) error {
	p, err := Prepare(j)
	if err != nil {
		return err
	}
	return p.Run()
}

// Prepared is a match whose settings are checked and whose openings are
// read, ready to be played.
type Prepared struct {
	job Job
	cfg Config
}

// Prepare checks j's settings (time control, SPRT, openings, engines and
// the rest, the fleet's, the --plot file) and reads its openings, so that a caller can
// report a wrong setting before it starts anything around the match.
// Settings that are wrong are bad input (internal/badinput).
func Prepare(j Job) (*Prepared, error) {
	cfg := j.Config
	var err error
	if j.TimeControl != "" {
		if cfg.Limits.Base, cfg.Limits.Inc, err = ParseTimeControl(j.TimeControl); err != nil {
			return nil, badinput.Mark(err)
		}
	}
	if j.SPRT != "" {
		if cfg.SPRT, err = ParseSPRT(j.SPRT); err != nil {
			return nil, badinput.Mark(err)
		}
	}
	if cfg.Openings, err = LoadOpenings(j.Openings, j.Strict, j.Stderr); err != nil {
		return nil, badinput.Mark(err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, badinput.Mark(err)
	}
	if j.CheckFleet != nil {
		if err := j.CheckFleet(&cfg); err != nil {
			return nil, err
		}
	}
	if j.Plot != "" {
		if err := fileio.CheckWritable(j.Plot); err != nil {
			return nil, fmt.Errorf("--plot: %w", err)
		}
	}
	return &Prepared{job: j, cfg: cfg}, nil
}

// SetObserver makes o the match's observer (Config.Observer).
func (p *Prepared) SetObserver(o Observer) { p.cfg.Observer = o }

// Run plays the match (Run) and writes its table, and the Elo curve when
// the job's Plot says; with a Fleet, it starts the fleet first. The first
// interrupt finishes the games under way, a second one ends the process.
func (p *Prepared) Run() error {
	j, cfg := p.job, p.cfg
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if j.Fleet != nil {
		stop, err := j.Fleet(ctx, &cfg)
		if err != nil {
			return err
		}
		defer stop()
	}
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts) // after the match, an interrupt is the caller's again
	go func() {
		<-interrupts
		signal.Stop(interrupts) // a second interrupt ends the runner at once
		fmt.Fprintln(j.Stderr, "\nnechecb match: interrupted; finishing the games under way (interrupt again to quit now, then use --resume)")
		cancel()
	}()
	var progress func(Progress)
	status := term.NewStatusLine(j.Stderr)
	if !j.Quiet {
		progress = func(p Progress) { status.Update(p.String()) }
	}
	sum, err := Run(ctx, cfg, progress)
	status.Done()
	if sum != nil {
		sum.WriteTable(j.Stdout)
		if perr := writePlot(j.Plot, cfg, sum); perr != nil {
			return perr
		}
	}
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ErrInterrupted
	}
	return nil
}

// writePlot writes the Elo curve of sum to path, unless path is empty.
func writePlot(path string, cfg Config, sum *Summary) error {
	if path == "" {
		return nil
	}
	names := make([]string, len(cfg.Engines))
	for i, e := range cfg.Engines {
		names[i] = e.Name
	}
	title := names[0] + " vs " + strings.Join(names[1:], ", ")
	return fileio.WriteAtomic(path, PlotSVG(sum, title))
}
