package main

import "unsafe"

// Sizes of the host's buffers: the status line str and the reply of
// enginecommand hold 1024 bytes, the name of enginename 255, counting the
// NUL each time.
const (
	textSize = 1024
	nameSize = 255
)

// maxCommand bounds the command text read from the host. CheckerBoard's
// commands are at most 256 bytes, except "set gamehist", which grows with
// the king moves since the last capture or man move (about 6 bytes each).
const maxCommand = 4096

// hostBytes views size bytes of host memory at p.
func hostBytes(p unsafe.Pointer, size int) []byte { return unsafe.Slice((*byte)(p), size) }

// putText writes s into buf as a NUL-terminated string, cut to fit. The
// bytes go first and the terminator last; the host may read buf from
// another thread meanwhile, and the caller keeps buf's last byte a NUL, so
// the host always finds a terminator inside buf.
func putText(buf []byte, s string) {
	n := min(len(s), len(buf)-1)
	copy(buf[:n], s)
	buf[n] = 0
}

// cText reads the NUL-terminated string at p, refusing one with no NUL in
// its first limit bytes. It reads no byte after the NUL.
func cText(p unsafe.Pointer, limit int) (string, bool) {
	for n := 0; n < limit; n++ {
		if *(*byte)(unsafe.Add(p, n)) == 0 {
			return string(hostBytes(p, n)), true
		}
	}
	return "", false
}
