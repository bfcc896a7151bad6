package term

import (
	"fmt"
	"strings"
)

// Bar draws done of total as a bar width characters wide between brackets
// followed by the percentage: "[=============                 ]  46%". The
// status lines of long jobs (nn-train's epochs, nechecb analyse's games)
// start with it.
func Bar(done, total, width int) string {
	total = max(total, 1)
	done = max(0, min(done, total))
	filled := width * done / total
	return fmt.Sprintf("[%s%s] %3d%%", strings.Repeat("=", filled), strings.Repeat(" ", width-filled), 100*done/total)
}
