package protocol

import (
	"bufio"
	"io"
)

// output writes protocol lines from one goroutine, so that the search's
// progress reports never wait for a slow reader: they are dropped instead
// when the queue is full. Lines keep the order in which they were queued.
type output struct {
	lines    chan string
	finished chan struct{}
}

// outputQueue is how many lines may wait to be written.
const outputQueue = 4096

func newOutput(w io.Writer) *output {
	o := &output{lines: make(chan string, outputQueue), finished: make(chan struct{})}
	go o.write(w)
	return o
}

// write copies queued lines to w, flushing whenever the queue runs empty.
// After a write error it keeps draining, so that senders never block.
func (o *output) write(w io.Writer) {
	defer close(o.finished)
	bw := bufio.NewWriter(w)
	failed := false
	for line := range o.lines {
		if failed {
			continue
		}
		bw.WriteString(line)
		bw.WriteByte('\n')
		if len(o.lines) == 0 && bw.Flush() != nil {
			failed = true
		}
	}
	bw.Flush()
}

// send queues a line, waiting for room if needed.
func (o *output) send(line string) { o.lines <- line }

// trySend queues a line if there is room and reports whether it did.
func (o *output) trySend(line string) bool {
	select {
	case o.lines <- line:
		return true
	default:
		return false
	}
}

// close writes what is queued and stops the writer.
func (o *output) close() {
	close(o.lines)
	<-o.finished
}
