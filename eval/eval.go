// Package eval owns position evaluation: the Evaluator interface that the
// search calls at its leaves, the registry that builds evaluators from spec
// strings such as "heuristic" or "neche:best_networks.txt#last", and the plain
// material evaluator. Each kind of evaluator lives in its own sub-package and
// registers itself here.
package eval

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/nechecb/nechecb/engine"
)

// ScoreLimit bounds every evaluator's score: Evaluate returns a value in
// [-ScoreLimit, ScoreLimit], well inside the search's win and loss scores.
const ScoreLimit = 10000

// Evaluator judges a position. An instance may keep scratch state, so each
// search thread uses its own, made by a Factory.
type Evaluator interface {
	// Evaluate returns the value of p for the side to move on the engine's
	// scale, where 100 is one man, clamped to [-ScoreLimit, ScoreLimit].
	Evaluate(p *engine.Position) int
	// Raw returns the model's own output for the side to move, before any
	// scaling, for inspection.
	Raw(p *engine.Position) float64
}

// Describer is an Evaluator that can say, as plain data, how another
// process rebuilds it: the kind it is registered under, the selector of its
// spec, and the contents of the file the kind's loader reads (nil when the
// kind needs no file). Loading the data as a file, with the selector, must
// give an evaluator with the same values. Games played on other machines
// (internal/workunit) can only carry evaluators that are Describers.
type Describer interface {
	Describe() (kind, selector string, data []byte)
}

// Factory makes a fresh Evaluator sharing the loaded, read-only model. It is
// safe to call from several goroutines.
type Factory func() Evaluator

// Loader builds a Factory for one kind from the path and selector of a spec
// (both may be empty). It reads any file it needs before returning, so a bad
// file is reported at load time.
type Loader func(path, selector string) (Factory, error)

// DataLoader builds a Factory for one kind from a weight file's bytes and a
// selector, for kinds that can read their files from memory.
type DataLoader func(data []byte, selector string) (Factory, error)

// kind is one entry of the registry: how a kind loads from a spec's path,
// and, for kinds that can, from a weight file's bytes.
type kind struct {
	load Loader
	data DataLoader // nil when the kind reads files only
}

var (
	registryMu sync.RWMutex
	registry   = map[string]*kind{}
)

// Register makes a kind available under name. Sub-packages call it from
// init. Registering a name twice panics, since it is a programming error.
func Register(name string, load Loader) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("eval: kind registered twice: " + name)
	}
	registry[name] = &kind{load: load}
}

// RegisterData lets the kind registered under name load from bytes
// (LoadData), as a work unit's weights arrive. The kind must be registered
// first, and once: anything else panics, since it is a programming error.
func RegisterData(name string, load DataLoader) {
	registryMu.Lock()
	defer registryMu.Unlock()
	k, ok := registry[name]
	switch {
	case !ok:
		panic("eval: data loader for a kind not registered: " + name)
	case k.data != nil:
		panic("eval: data loader registered twice: " + name)
	}
	k.data = load
}

// lookup returns the registry's entry for name, or nil.
func lookup(name string) *kind {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return registry[name]
}

// LoadData builds a Factory of kind name from the bytes of a weight file
// and a selector. ok is false when the kind cannot load from bytes: then
// the caller writes the bytes to a file and calls Load.
func LoadData(name, selector string, data []byte) (f Factory, ok bool, err error) {
	k := lookup(name)
	if k == nil || k.data == nil {
		return nil, false, nil
	}
	if f, err = k.data(data, selector); err != nil {
		return nil, true, fmt.Errorf("evaluator %s: %w", name, err)
	}
	return f, true, nil
}

// Kinds lists the registered kinds, sorted.
func Kinds() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Spec is a parsed evaluator spec: NAME[:PATH[#SELECTOR]].
type Spec struct {
	Name, Path, Selector string
}

// String writes the spec back in NAME[:PATH[#SELECTOR]] form.
func (s Spec) String() string {
	out := s.Name
	if s.Path != "" || s.Selector != "" {
		out += ":" + s.Path
	}
	if s.Selector != "" {
		out += "#" + s.Selector
	}
	return out
}

// ParseSpec splits a spec string. The name ends at the first ':', and the
// selector starts at the last '#' of the rest.
func ParseSpec(text string) (Spec, error) {
	text = strings.TrimSpace(text)
	name, rest, _ := strings.Cut(text, ":")
	var s Spec
	s.Name = strings.ToLower(strings.TrimSpace(name))
	if s.Name == "" {
		return s, fmt.Errorf("evaluator spec %q has no name (want NAME[:PATH[#SELECTOR]])", text)
	}
	if i := strings.LastIndex(rest, "#"); i >= 0 {
		s.Path, s.Selector = rest[:i], rest[i+1:]
	} else {
		s.Path = rest
	}
	return s, nil
}

// Load builds a Factory from a spec string such as "material",
// "neche:nets.txt#last" or "cnn:Gen15WeightsBest.csv#Gen15_0111".
func Load(text string) (Factory, error) {
	s, err := ParseSpec(text)
	if err != nil {
		return nil, err
	}
	k := lookup(s.Name)
	if k == nil {
		return nil, fmt.Errorf("unknown evaluator %q (known: %s)", s.Name, strings.Join(Kinds(), ", "))
	}
	f, err := k.load(s.Path, s.Selector)
	if err != nil {
		return nil, fmt.Errorf("evaluator %s: %w", s, err)
	}
	return f, nil
}

// Clamp limits a score to [-ScoreLimit, ScoreLimit].
func Clamp(score int) int {
	return max(-ScoreLimit, min(ScoreLimit, score))
}
