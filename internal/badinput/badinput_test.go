package badinput

import (
	"errors"
	"fmt"
	"testing"
)

func TestMarkSurvivesWrapping(t *testing.T) {
	base := errors.New("no such file")
	marked := Mark(base)
	if !Is(marked) || !Is(fmt.Errorf("reading weights: %w", marked)) {
		t.Error("a marked error, wrapped or not, is not recognised")
	}
	if Is(base) || Is(fmt.Errorf("disk full: %w", base)) {
		t.Error("an unmarked error counts as bad input")
	}
	if !errors.Is(marked, base) || marked.Error() != base.Error() {
		t.Error("marking changed the error")
	}
	if Mark(nil) != nil {
		t.Error("Mark(nil) is not nil")
	}
}
