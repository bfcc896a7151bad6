package books

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzReadBinary feeds arbitrary bytes to the binary reader: it must not
// panic, and whatever it accepts must write back to the same bytes.
func FuzzReadBinary(f *testing.F) {
	var good bytes.Buffer
	if err := sampleBook(f).WriteBinary(&good); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())
	f.Add([]byte(Magic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := readBinary(data)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := b.WriteBinary(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("accepted %x but writes back %x", data, out.Bytes())
		}
	})
}

// FuzzReadText feeds arbitrary text to the text reader: it must not panic,
// and whatever it accepts must write and read back to the same book.
func FuzzReadText(f *testing.F) {
	var good bytes.Buffer
	if err := sampleBook(f).WriteText(&good); err != nil {
		f.Fatal(err)
	}
	f.Add(good.String())
	f.Add("nechecb book 1\n# nothing\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		b, err := readText(bytes.NewReader([]byte(text)), "f")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := b.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		again, err := readText(&out, "f")
		if err != nil {
			t.Fatalf("rereading %q: %v", out.String(), err)
		}
		if diff := cmp.Diff(bookSummary(b), bookSummary(again)); diff != "" {
			t.Fatalf("text round trip (-first +second):\n%s", diff)
		}
	})
}
