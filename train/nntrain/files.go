package nntrain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/nn"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/internal/term"
	"github.com/nechecb/nechecb/train/fit"
)

// Files is a fit from files to files, as `nechecb nn-train` runs it.
type Files struct {
	// Data are the positions files (train/positions); Out is the weight
	// file written.
	Data []string
	Out  string
	// Init is the weight file the fit starts from (empty: seeded random
	// weights); its note is carried into the new one. Lineage, when set,
	// is a weight file whose note is carried instead.
	Init, Lineage string
	// Plot, when set, receives the loss curve as SVG.
	Plot string
	// Compare are evaluator specs (eval.Load) whose held-out loss is
	// reported next to the net's (Config.Rivals).
	Compare []string
	// MaxPositions, when above 0, keeps only the first so many positions.
	MaxPositions int
	// Command is the command line, recorded in the note; Remark, when set,
	// is added to the note (a round's data seed, its gate line).
	Command, Remark string
	// Config sets the fit. Its Layout is Init's, when there is one,
	// changed by Layout (ParseLayout's text) when that is set.
	Config Config
	Layout string
	// Log receives the lines of the fit; Status, when set, the progress
	// line (a terminal's, redrawn in place).
	Log, Status io.Writer
}

// TrainFiles reads the data and the starting net, fits, and writes the
// best epoch's net with a note that carries the starting net's lineage and
// adds this fit's paragraph, and the loss plot when asked. Bad flags,
// unreadable input and output that cannot be written are refused before
// the fit.
func TrainFiles(ctx context.Context, f Files) error {
	start, cfg, err := f.prepare()
	if err != nil {
		return err
	}
	data, err := fit.ReadData(f.Data)
	if err != nil {
		return err
	}
	recs := data.Records
	if f.MaxPositions > 0 && len(recs) > f.MaxPositions {
		recs = recs[:f.MaxPositions]
	}
	verb := "training"
	if cfg.Epochs == 0 {
		verb = "measuring"
	}
	fmt.Fprintf(f.Log, "%s a %s net on %d positions from %s\n", verb, cfg.Layout, len(recs), strings.Join(data.Files, ", "))
	var status *term.StatusLine
	if f.Status != nil {
		status = term.NewStatusLine(f.Status)
		status.Interval = time.Minute
	}
	show := func(p Progress) {
		if status != nil {
			status.Update(progressLine(p))
		}
	}
	res, err := Train(ctx, recs, start, cfg, show, func(e fit.Epoch, speed float64) {
		if status != nil {
			status.Done()
		}
		fmt.Fprintf(f.Log, "%s; %.0f positions/s\n", fit.EpochLine(e), speed)
	})
	if status != nil {
		status.Done()
	}
	if err != nil {
		return err
	}
	report(f.Log, cfg, res)
	if cfg.Epochs == 0 {
		return nil // nothing fitted, nothing written
	}
	res.Net.Note = Note(res.Lineage, paragraph(f, cfg, data, res))
	if err := res.Net.WriteFile(f.Out); err != nil {
		return err
	}
	if f.Plot != "" {
		return fileio.WriteAtomic(f.Plot, res.SVG("nn-train: "+f.Out))
	}
	return nil
}

// prepare checks the flags, reads the starting net and the lineage, and
// checks that the outputs can be written: everything that can be refused
// before the data is read. It returns the starting net (nil: none) and the
// fit's settings.
func (f *Files) prepare() (*nn.Net, Config, error) {
	cfg := f.Config
	if cfg.Epochs == 0 {
		if f.Out != "" || f.Plot != "" || f.Lineage != "" || cfg.Checkpoint != "" {
			return nil, cfg, badinput.Mark(errors.New("--epochs 0 fits and writes nothing: drop --out, --plot, --lineage and --checkpoint"))
		}
	} else if f.Out == "" {
		return nil, cfg, badinput.Mark(errors.New("--out is required"))
	}
	if len(f.Data) == 0 {
		return nil, cfg, badinput.Mark(errors.New("--data is required"))
	}
	if f.MaxPositions < 0 {
		return nil, cfg, badinput.Mark(fmt.Errorf("--max-positions %d: want 0 (all) or more", f.MaxPositions))
	}
	var start *nn.Net
	if f.Init != "" {
		var err error
		if start, err = nn.ReadFile(f.Init); err != nil {
			return nil, cfg, badinput.Mark(err)
		}
		cfg.Layout, cfg.Lineage = start.Layout, start.Note
	}
	if f.Layout != "" {
		var err error
		if cfg.Layout, err = ParseLayout(f.Layout, cfg.Layout); err != nil {
			return nil, cfg, badinput.Mark(fmt.Errorf("--layout: %w", err))
		}
	}
	if err := checkConfig(cfg); err != nil {
		return nil, cfg, badinput.Mark(err)
	}
	if start != nil && !canStart(start.Layout, cfg.Layout) {
		return nil, cfg, badinput.Mark(fmt.Errorf("--init %s is %s, --layout asks for %s (a layout can only widen the first layer or split the heads)", f.Init, start.Layout, cfg.Layout))
	}
	for _, spec := range f.Compare {
		load, err := eval.Load(spec)
		if err != nil {
			return nil, cfg, badinput.Mark(fmt.Errorf("--compare: %w", err))
		}
		cfg.Rivals = append(cfg.Rivals, Rival{Name: strings.TrimSpace(spec), New: load})
	}
	if err := checkPlan(cfg, start != nil); err != nil {
		return nil, cfg, badinput.Mark(err)
	}
	if f.Lineage != "" {
		prev, err := nn.ReadFile(f.Lineage)
		if err != nil {
			return nil, cfg, badinput.Mark(err)
		}
		cfg.Lineage = prev.Note
	}
	for _, path := range []string{f.Out, f.Plot} {
		if path == "" {
			continue
		}
		if err := fileio.CheckWritable(path); err != nil {
			return nil, cfg, err
		}
	}
	return start, cfg, CheckCheckpoint(cfg)
}

// report writes the fit's summary lines.
func report(w io.Writer, cfg Config, res *Result) {
	if res.Resumed > 0 {
		fmt.Fprintf(w, "resumed from %s after epoch %d\n", cfg.Checkpoint, res.Resumed)
	}
	fmt.Fprintf(w, "k %.4f; %d training and %d held-out positions; held-out loss %.6f at the start%s; kept epoch %d\n",
		res.K, res.TrainN, res.ValidN, res.StartValid, fit.BucketText(res.StartValid, res.StartBuckets), res.Best)
	res.WriteKept(w)
	if res.QuantN > 0 {
		fmt.Fprintf(w, "quantisation error over %d %s positions: largest %.2f cp, mean %.3f cp\n", res.QuantN, quantSet(res), res.QuantMax, res.QuantMean)
	}
	writeRounding(w, res)
	writeComparison(w, res)
	if res.Clamped > 0 {
		fmt.Fprintf(w, "warning: %d weights clamped to the file's integers\n", res.Clamped)
	}
}

func quantSet(res *Result) string {
	if res.ValidN > 0 {
		return "held-out"
	}
	return "training"
}

// progressLine draws the progress of a fit as a bar with the rate and the
// time left.
func progressLine(p Progress) string {
	return fmt.Sprintf("nn-train epoch %d/%d %s %d/%d positions, %.0f/s, eta %s",
		p.Epoch, p.Epochs, term.Bar(p.Done, p.Total, 30), p.Done, p.Total, p.Rate, p.ETA.Round(time.Second))
}

// cumulative matches the count of positions learned from that a note's
// paragraph records.
var cumulative = regexp.MustCompile(`cumulative (\d+) positions`)

// paragraph is this fit's part of the note: the command, the data with
// sizes, the settings, the kept epoch and its losses, the quantisation
// error and the positions learned from, this fit's and in all the lineage.
func paragraph(f Files, cfg Config, data *fit.Data, res *Result) string {
	before := 0
	if m := cumulative.FindAllStringSubmatch(res.Lineage, -1); len(m) > 0 {
		before, _ = strconv.Atoi(m[len(m)-1][1])
	}
	from := "seeded random weights"
	if f.Init != "" {
		from = f.Init
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s nn-train: %s\n", time.Now().UTC().Format("2006-01-02"), f.Command)
	fmt.Fprintf(&b, "net %s, from %s; data %s", cfg.Layout, from, strings.Join(data.Files, ", "))
	if f.MaxPositions > 0 {
		fmt.Fprintf(&b, ", first %d positions", f.MaxPositions)
	}
	fmt.Fprintf(&b, "\nlambda %g, k %.4f, %d epochs, batch %d, rate %g, validation %g, seed %d\n",
		cfg.Lambda, res.K, cfg.Epochs, cfg.Batch, cfg.Rate, cfg.Validation, cfg.Seed)
	fmt.Fprintf(&b, "kept epoch %d of %d: held-out loss %.6f (start %.6f)%s, training loss %.6f\n",
		res.Best, len(res.Epochs), res.BestValid(), res.StartValid, fit.BucketText(res.BestValid(), res.Kept()), keptTrain(res))
	fmt.Fprintf(&b, "quantisation error on %d %s positions: largest %.2f cp, mean %.3f cp\n", res.QuantN, quantSet(res), res.QuantMax, res.QuantMean)
	if len(res.Compared) > 0 {
		fmt.Fprintf(&b, "%s\n", comparisonText(res))
	}
	if f.Remark != "" {
		fmt.Fprintf(&b, "%s\n", f.Remark)
	}
	fresh := freshTrained(data, f.MaxPositions, cfg.Validation, res.Lineage)
	fmt.Fprintf(&b, "learned from %d positions (%d games), %d of them new to the lineage, cumulative %d positions",
		res.TrainN, data.Games, fresh, before+fresh)
	return b.String()
}

// freshTrained counts the training positions (those Split does not hold
// out) of the data files that the lineage does not already list, so that
// a fit which reads an earlier round's file again does not add its
// positions to the cumulative count twice. A file counts as listed when
// the lineage, or an earlier file of this fit, has its description
// without the path: the same positions, games and bytes.
func freshTrained(data *fit.Data, maxPositions int, validation float64, lineage string) int {
	n, start := 0, 0
	for i, size := range data.Sizes {
		end := start + size
		if maxPositions > 0 {
			end = min(end, maxPositions)
		}
		desc := data.Files[i]
		desc = desc[strings.LastIndex(desc, " ("):]
		if !strings.Contains(lineage, desc) {
			lineage += desc
			for j := start; j < end; j++ {
				if !fit.HeldOut(&data.Records[j], validation) {
					n++
				}
			}
		}
		start += size
	}
	return n
}

func keptTrain(res *Result) float64 {
	if res.Best > 0 {
		return res.Epochs[res.Best-1].Train
	}
	return 0
}

// Note returns the lineage with the paragraph after it, a blank line
// between, dropping the lineage's oldest paragraphs (for a line that says
// so) when the whole would pass nn.MaxNote.
func Note(lineage, paragraph string) string {
	const cut = "(earlier lineage cut)"
	if lineage == "" {
		return clipNote(paragraph)
	}
	note := lineage + "\n\n" + paragraph
	for paras := strings.Split(lineage, "\n\n"); len(note) > nn.MaxNote && len(paras) > 0; {
		paras = paras[1:]
		note = strings.Join(append(append([]string{cut}, paras...), paragraph), "\n\n")
	}
	return clipNote(note)
}

// clipNote keeps the first nn.MaxNote bytes of s, as UTF-8.
func clipNote(s string) string {
	if len(s) <= nn.MaxNote {
		return s
	}
	return strings.ToValidUTF8(s[:nn.MaxNote-3], "")
}

// ParseLayout reads a layout from text: comma-separated stages=N,
// hidden=N, l2=N, l3=N, shared and split (or shared=true/false,
// split=true/false), each changing base.
func ParseLayout(text string, base nn.Layout) (nn.Layout, error) {
	l := base
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, val, hasVal := strings.Cut(part, "=")
		if flag := map[string]*bool{"shared": &l.SharedFirst, "split": &l.SplitHeads}[key]; flag != nil {
			*flag = true
			if hasVal {
				b, err := strconv.ParseBool(val)
				if err != nil {
					return l, fmt.Errorf("%q: want %s, %s=true or %s=false", part, key, key, key)
				}
				*flag = b
			}
			continue
		}
		n, err := strconv.Atoi(val)
		if !hasVal || err != nil {
			return l, fmt.Errorf("%q: want stages=N, hidden=N, l2=N, l3=N, shared or split", part)
		}
		switch key {
		case "stages":
			l.Stages = n
		case "hidden":
			l.Hidden = n
		case "l2":
			l.L2 = n
		case "l3":
			l.L3 = n
		default:
			return l, fmt.Errorf("%q: unknown key %q (want stages, hidden, l2, l3, shared or split)", part, key)
		}
	}
	return l, l.Check()
}
