package evolve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/fileio"
)

// SettingsFile is the file in a run folder that keeps the run's settings,
// so that a resumed run goes on exactly as it began.
const SettingsFile = "evolve.json"

// Prepare makes dir ready for a run with settings, a value that encodes as
// a JSON object (the learner's kind, mode, seed and every setting that
// shapes the population).
//
// A new run (resume false) creates dir when it is missing, refuses it when
// it holds anything, and writes the settings. A resumed run needs the
// settings file of an earlier run and refuses settings that differ from it,
// naming each one; it removes the temporary files of writes a kill cut
// short. Errors in what the user gave are marked as bad input.
func Prepare(dir string, resume bool, settings any) error {
	want, err := settingsMap(settings)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, SettingsFile)
	if resume {
		var have map[string]any
		if err := ReadSettings(dir, &have); err != nil {
			return err
		}
		if diff := differences(have, want); diff != "" {
			return badinput.Mark(fmt.Errorf("%s: the run was started with other settings: %s", dir, diff))
		}
		return removeLeftovers(dir)
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	case err != nil:
		return err // the folder cannot be read: a failure to write, not bad input
	case len(entries) > 0:
		return badinput.Mark(fmt.Errorf("%s is not empty: give an empty or new folder, or --resume to go on with the run in it", dir))
	}
	data, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return err
	}
	return fileio.WriteAtomic(path, append(data, '\n'))
}

// leftover matches the temporary files of internal/fileio's atomic writes:
// "." + the file's name + ".tmp" + digits. A run killed during a write
// leaves one behind.
var leftover = regexp.MustCompile(`^\..+\.tmp[0-9]+$`)

// removeLeftovers removes the temporary files an interrupted run left in
// dir and its folders.
func removeLeftovers(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && leftover.MatchString(d.Name()) {
			return os.Remove(path)
		}
		return nil
	})
}

// ReadSettings reads the settings kept in run folder dir into v.
func ReadSettings(dir string, v any) error {
	path := filepath.Join(dir, SettingsFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return badinput.Mark(fmt.Errorf("%s holds no run to resume (no %s)", dir, SettingsFile))
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return badinput.Mark(fmt.Errorf("%s: %w", path, err))
	}
	return nil
}

// settingsMap returns settings as a JSON object.
func settingsMap(settings any) (map[string]any, error) {
	data, err := json.Marshal(settings)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("evolve: settings must encode as a JSON object: %w", err)
	}
	return m, nil
}

// differences lists the keys whose values differ between have (the run's)
// and want (the ones given), as "key: run X, given Y".
func differences(have, want map[string]any) string {
	keys := map[string]bool{}
	for k := range have {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if !reflect.DeepEqual(have[k], want[k]) {
			out = append(out, fmt.Sprintf("%s: run %s, given %s", k, jsonText(have[k]), jsonText(want[k])))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

func jsonText(v any) string {
	if v == nil {
		return "(none)"
	}
	data, _ := json.Marshal(v)
	return string(data)
}

// Exists reports whether anything is at path.
func Exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Complete counts the complete generations of a run folder: generation g
// is complete when the file marker(g), which a learner writes last, is
// there, for g from 0 on without a gap.
func Complete(marker func(gen int) string) int {
	done := 0
	for Exists(marker(done)) {
		done++
	}
	return done
}

// Started reports whether a run folder with done complete generations
// holds the population of the next one, population(done), for a learner's
// Open to read: always after a complete generation, and before the first
// when a run was stopped after writing generation 0.
func Started(done int, population func(gen int) string) bool {
	return done > 0 || Exists(population(0))
}
