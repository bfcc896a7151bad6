package fit

import (
	"fmt"
	"os"

	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/train/positions"
)

// Data is the positions of several files, in order.
type Data struct {
	Records []positions.Record
	// Files describes each file: its path, positions, games and bytes.
	Files []string
	// Sizes holds the number of records each file gave, in order.
	Sizes []int
	// Games counts the games of all the files.
	Games int
}

// ReadData reads the positions files at paths (train/positions); an
// unreadable or damaged file is bad input.
func ReadData(paths []string) (*Data, error) {
	d := &Data{}
	for _, path := range paths {
		file, err := positions.ReadFile(path)
		if err != nil {
			return nil, badinput.Mark(err)
		}
		size := int64(-1)
		if st, err := os.Stat(path); err == nil {
			size = st.Size()
		}
		d.Records = append(d.Records, file.Records...)
		d.Games += file.Games
		d.Sizes = append(d.Sizes, len(file.Records))
		d.Files = append(d.Files, fmt.Sprintf("%s (%d positions, %d games, %d bytes)", path, len(file.Records), file.Games, size))
	}
	return d, nil
}
