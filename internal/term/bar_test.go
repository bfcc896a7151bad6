package term

import "testing"

func TestBar(t *testing.T) {
	for _, c := range []struct {
		done, total int
		want        string
	}{
		{0, 10, "[          ]   0%"},
		{3, 10, "[===       ]  30%"},
		{10, 10, "[==========] 100%"},
		{12, 10, "[==========] 100%"},
		{0, 0, "[          ]   0%"},
	} {
		if got := Bar(c.done, c.total, 10); got != c.want {
			t.Errorf("Bar(%d, %d, 10) = %q, want %q", c.done, c.total, got, c.want)
		}
	}
}
