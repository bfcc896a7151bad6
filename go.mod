module github.com/nechecb/nechecb

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/peterh/liner v1.2.3
	github.com/rs/zerolog v1.35.1
)

require (
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/mattn/go-runewidth v0.0.31 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
