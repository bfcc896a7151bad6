//go:build !js

package gui

import (
	"compress/gzip"
	"io"
	"os"

	"github.com/andybalholm/brotli"
	"github.com/nechecb/nechecb/internal/fileio"
)

// brotliQuality is the level of the precompressed nechecb.wasm.br. On
// the 7.4 MB wasm (2026-12-01, the project's loaded 2-core machine),
// level 9 took 3.5 s for 3.24 MB, level 11 46 s for 3.02 MB; gzip -9
// gives 3.34 MB. An export should not take a minute, so 9; the brotli
// command's -q 11 can redo the file where the last 7% matters.
const brotliQuality = 9

// writePrecompressed writes path.gz (gzip at its best level) and path.br
// (brotli at brotliQuality) beside the file at path, each through a
// temporary file, for a static server that sends a file's compressed
// copy to a browser that accepts it (nginx's gzip_static and
// brotli_static, Caddy's precompressed). It returns their sizes.
func writePrecompressed(path string) (gz, br int64, err error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	gz, err = writeCompressed(path+".gz", src, func(w io.Writer) (io.WriteCloser, error) {
		return gzip.NewWriterLevel(w, gzip.BestCompression)
	})
	if err != nil {
		return 0, 0, err
	}
	br, err = writeCompressed(path+".br", src, func(w io.Writer) (io.WriteCloser, error) {
		return brotli.NewWriterLevel(w, brotliQuality), nil
	})
	return gz, br, err
}

// writeCompressed writes src compressed by the writer newW makes to path,
// atomically, and returns the compressed size.
func writeCompressed(path string, src []byte, newW func(io.Writer) (io.WriteCloser, error)) (int64, error) {
	err := fileio.WriteAtomicFunc(path, func(w io.Writer) error {
		zw, err := newW(w)
		if err != nil {
			return err
		}
		if _, err := zw.Write(src); err != nil {
			return err
		}
		return zw.Close()
	})
	if err != nil {
		return 0, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
