package search

import "fmt"

// DisableFeature switches off one search feature of s by name, so that the
// A/B matches in strength_test.go can measure what the feature earns.
func DisableFeature(s *Searcher, name string) error {
	switch name {
	case "lmr":
		s.tune.lmr = false
	default:
		return fmt.Errorf("unknown feature %q (known: lmr)", name)
	}
	return nil
}
