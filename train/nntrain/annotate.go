package nntrain

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nechecb/nechecb/eval/nn"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/fileio"
)

// Annotate reads the weight file at in, adds remark as a line at the end of
// its note's last paragraph (a training round's gate line, say), and writes
// the net to out atomically: the weights and every other field are the
// same, only the note grows. A note that would pass nn.MaxNote loses its
// oldest paragraphs, as a fit's does (Note). An unreadable in, an empty or
// invalid remark and an out that cannot be written are refused before
// anything is written.
func Annotate(in, out, remark string) error {
	switch {
	case in == "" || out == "":
		return badinput.Mark(errors.New("--annotate FILE needs --out FILE2"))
	case strings.TrimSpace(remark) == "":
		return badinput.Mark(errors.New("--annotate needs --remark TEXT, the line to add"))
	case !utf8.ValidString(remark):
		return badinput.Mark(fmt.Errorf("--remark %q is not UTF-8", remark))
	}
	net, err := nn.ReadFile(in)
	if err != nil {
		return badinput.Mark(err)
	}
	if err := fileio.CheckWritable(out); err != nil {
		return err
	}
	net.Note = annotated(net.Note, remark)
	return net.WriteFile(out)
}

// annotated returns note with line added to the end of its last paragraph.
func annotated(note, line string) string {
	lineage, last := "", note
	if i := strings.LastIndex(note, "\n\n"); i >= 0 {
		lineage, last = note[:i], note[i+2:]
	}
	if last != "" {
		last += "\n"
	}
	return Note(lineage, last+line)
}
