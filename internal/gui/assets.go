package gui

// Body caps: a PDN upload may be large, every other request is small.
const (
	maxPDNBody  = 1 << 20
	maxBodySize = 64 << 10
)
