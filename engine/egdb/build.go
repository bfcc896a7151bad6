package egdb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nechecb/nechecb/engine"
)

// BuildOptions says what Build builds and with what.
type BuildOptions struct {
	// Dir is the directory the slice files go to; it is created if needed.
	Dir string
	// Pieces is the largest number of pieces, 2..MaxPieces.
	Pieces int
	// Threads is the number of goroutines that share the work (at least 1).
	Threads int
	// MemoryMB caps the memory the solved tables kept for lookups take,
	// with the slices being solved and the cache of decoded blocks. Slices
	// that do not fit are read from their files instead (slower). 0 means
	// DefaultMemoryMB.
	MemoryMB int
	// Resume keeps the slice files already in Dir that pass their checks
	// and builds the rest. Without it, Dir must hold no slice file.
	Resume bool
	// Progress, when set, is called about every ProgressEvery (one second
	// when 0) and when a slice is written, from one goroutine at a time.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// DefaultMemoryMB is the memory budget when BuildOptions.MemoryMB is 0.
const DefaultMemoryMB = 4096

// Progress is a report on a build under way.
type Progress struct {
	// Slice names the slices being solved, or the one just written.
	Slice string
	// SlicesDone and Slices count the stored slices finished (in this run
	// or before it) and in all.
	SlicesDone, Slices int
	// Done and Total count the positions this run has solved and will
	// solve in all (both sides to move).
	Done, Total uint64
	// Rate is the positions solved per second over this run so far.
	Rate float64
	// Memory is what the process holds from the system, in bytes.
	Memory uint64
	// Elapsed is the time since the build started, ETA the estimated time
	// left at the present rate.
	Elapsed, ETA time.Duration
}

// Build builds every slice with up to o.Pieces pieces and at least one piece
// a side into o.Dir, in dependency order. Mirror slices are not built: a
// probe turns the board round and reads the slice it mirrors. Each slice
// file is written atomically once solved, so a build that stops resumes
// (o.Resume) from the last whole slice.
func Build(ctx context.Context, o BuildOptions) error {
	if o.Pieces < 2 || o.Pieces > MaxPieces {
		return fmt.Errorf("egdb build: %d pieces is outside 2..%d", o.Pieces, MaxPieces)
	}
	if o.Threads < 1 {
		return fmt.Errorf("egdb build: %d threads, want at least 1", o.Threads)
	}
	if o.MemoryMB == 0 {
		o.MemoryMB = DefaultMemoryMB
	}
	if o.MemoryMB < 16 {
		return fmt.Errorf("egdb build: %d MB of memory, want at least 16", o.MemoryMB)
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = time.Second
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return fmt.Errorf("egdb build: %w", err)
	}
	existing, err := filepath.Glob(filepath.Join(o.Dir, "*"+FileExt))
	if err != nil {
		return fmt.Errorf("egdb build: %w", err)
	}
	if len(existing) > 0 && !o.Resume {
		return fmt.Errorf("egdb build: %s already holds slice files (resume with --resume, or choose an empty directory)", o.Dir)
	}
	b := &builder{o: o, budget: uint64(o.MemoryMB) << 20, start: time.Now()}
	cacheMB := max(4, min(256, o.MemoryMB/8))
	b.cacheBytes = uint64(cacheMB) << 20
	b.st.db = newDB(os.DirFS(o.Dir), o.Dir, cacheMB)
	defer b.st.db.Close()
	return b.run(ctx)
}

// builder is the state of one Build.
type builder struct {
	o          BuildOptions
	st         store
	budget     uint64 // bytes
	cacheBytes uint64
	start      time.Time

	slices     []Material
	done       map[Material]bool
	total      uint64        // positions to solve in this run
	finished   atomic.Uint64 // positions of the slices solved in this run
	slicesDone atomic.Int64

	mu       sync.Mutex
	active   map[*sliceBuild]bool
	resident uint64 // bytes of resident tables
	report   sync.Mutex
}

func (b *builder) run(ctx context.Context) error {
	b.slices = canonicalSlices(b.o.Pieces)
	b.done = map[Material]bool{}
	b.active = map[*sliceBuild]bool{}
	for _, m := range b.slices {
		path := filepath.Join(b.o.Dir, SliceFileName(m))
		if _, err := os.Stat(path); err == nil && b.o.Resume {
			if err := b.st.db.addFile(SliceFileName(m)); err == nil {
				if err = b.st.db.slots[m.code()].checkData(); err == nil {
					b.done[m] = true
					b.slicesDone.Add(1)
					continue
				}
				b.st.db.slots[m.code()] = nil
			}
			// A damaged file is built again and replaced.
		}
		b.total += 2 * shapeOf(m).size
	}
	stop := make(chan struct{})
	var tick sync.WaitGroup
	if b.o.Progress != nil {
		tick.Add(1)
		go func() {
			defer tick.Done()
			t := time.NewTicker(b.o.ProgressEvery)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					b.progress("")
				}
			}
		}()
	}
	err := b.buildAll(ctx)
	close(stop)
	tick.Wait()
	return err
}

// buildAll solves the slices not done, group by group: the slices of a
// group (same pieces, same men) do not lead into one another.
func (b *builder) buildAll(ctx context.Context) error {
	// lastUse[x] is the position in the build order of the last slice
	// that leads into x.
	lastUse := map[Material]int{}
	for i, m := range b.slices {
		for _, x := range successors(m) {
			lastUse[x] = i
		}
	}
	for i := 0; i < len(b.slices); {
		j := i
		for j < len(b.slices) && b.slices[j].Pieces() == b.slices[i].Pieces() && b.slices[j].Men() == b.slices[i].Men() {
			j++
		}
		b.dropUnneeded(lastUse, i)
		var todo []Material
		for _, m := range b.slices[i:j] {
			if !b.done[m] {
				todo = append(todo, m)
			}
		}
		i = j
		if len(todo) == 0 {
			continue
		}
		// Slices without men are one configuration each, solved by one
		// thread: solve several at once. Others share the threads out over
		// their configurations, one slice at a time.
		parallel := 1
		if todo[0].Men() == 0 {
			parallel = min(b.o.Threads, len(todo))
			// As many as the memory budget holds, the largest first.
			sort.Slice(todo, func(i, j int) bool { return buildBytes(todo[i], 1) > buildBytes(todo[j], 1) })
			for parallel > 1 {
				var need uint64
				for _, m := range todo[:parallel] {
					need += buildBytes(m, 1)
				}
				if need+b.cacheBytes <= b.budget {
					break
				}
				parallel--
			}
		}
		threads := max(1, b.o.Threads/parallel)
		sem := make(chan struct{}, parallel)
		var wg sync.WaitGroup
		var firstErr error
		var errMu sync.Mutex
		for _, m := range todo {
			if err := ctx.Err(); err != nil {
				wg.Wait()
				return err
			}
			sem <- struct{}{}
			errMu.Lock()
			failed := firstErr != nil
			errMu.Unlock()
			if failed {
				<-sem
				break
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				if err := b.buildSlice(m, threads); err != nil {
					errMu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					errMu.Unlock()
				}
			}()
		}
		wg.Wait()
		if firstErr != nil {
			return firstErr
		}
	}
	b.progress("")
	return nil
}

// buildSlice makes room, solves slice m, writes its file and keeps it
// resident if the budget allows.
func (b *builder) buildSlice(m Material, threads int) error {
	if err := b.prepare(m, threads); err != nil {
		return err
	}
	b.mu.Lock()
	st := b.st // a copy, with the slice being solved as current
	sb := newSliceBuild(m, &st)
	st.cur = sb
	b.active[sb] = true
	b.mu.Unlock()
	err := sb.solve(threads)
	if err == nil {
		err = b.write(sb, threads)
	}
	b.mu.Lock()
	delete(b.active, sb)
	if err == nil {
		b.finished.Add(2 * sb.sh.size)
		b.slicesDone.Add(1)
	}
	b.mu.Unlock()
	if err != nil {
		return err
	}
	b.keep(sb)
	b.progress(m.String())
	return nil
}

// prepare makes sure the slices m leads into can be read: resident when the
// budget allows (evicting tables m does not need first), else through
// their files.
func (b *builder) prepare(m Material, threads int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	need := map[Material]bool{}
	for _, x := range successors(m) {
		need[x] = true
	}
	reserve := b.cacheBytes + buildBytes(m, threads)
	for sb := range b.active {
		reserve += buildBytes(sb.mat, threads)
	}
	// Evict what m does not need while over the budget, largest first.
	var evict []Material
	for _, x := range b.slices {
		if b.st.res[x.code()] != nil && !need[x] {
			evict = append(evict, x)
		}
	}
	sort.SliceStable(evict, func(i, j int) bool { return residentBytes(evict[i]) > residentBytes(evict[j]) })
	for _, x := range evict {
		if b.resident+reserve <= b.budget {
			break
		}
		b.resident -= b.st.res[x.code()].bytes()
		b.st.res[x.code()] = nil
	}
	for x := range need {
		if b.st.db.slots[x.code()] == nil && b.st.res[x.code()] == nil {
			return fmt.Errorf("egdb build: slice %v needs %v, which is not built", m, x)
		}
	}
	// Load needed tables that are only on disk, if they fit.
	for _, x := range b.slices {
		if !need[x] || b.st.res[x.code()] != nil || b.resident+reserve+residentBytes(x) > b.budget {
			continue
		}
		r, err := b.st.load(x, threads)
		if err != nil {
			return err
		}
		b.st.res[x.code()] = r
		b.resident += r.bytes()
	}
	return nil
}

// dropUnneeded evicts the resident tables that no slice from position
// next of the build order on leads into.
func (b *builder) dropUnneeded(lastUse map[Material]int, next int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, x := range b.slices {
		if r := b.st.res[x.code()]; r != nil {
			if last, ok := lastUse[x]; !ok || last < next {
				b.st.res[x.code()] = nil
				b.resident -= r.bytes()
			}
		}
	}
}

// keep makes the solved slice resident if it fits in the budget.
func (b *builder) keep(sb *sliceBuild) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var reserve uint64
	for a := range b.active {
		reserve += buildBytes(a.mat, 1)
	}
	r := sb.resident()
	if b.resident+b.cacheBytes+reserve+r.bytes() <= b.budget {
		b.st.res[sb.mat.code()] = r
		b.resident += r.bytes()
	}
}

// write compresses the solved slice and writes its file.
func (b *builder) write(sb *sliceBuild, threads int) error {
	var tabs [2]*encodedTable
	for c := engine.Black; c <= engine.White; c++ {
		if storedSides(sb.mat)&(1<<c) != 0 {
			tabs[c] = sb.encodeTable(c, threads)
		}
	}
	path := filepath.Join(b.o.Dir, SliceFileName(sb.mat))
	if err := writeSliceFile(path, sb.mat, tabs); err != nil {
		return fmt.Errorf("egdb build: %w", err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.st.db.addFile(SliceFileName(sb.mat)); err != nil {
		return fmt.Errorf("egdb build: reading back: %w", err)
	}
	return nil
}

// progress sends a report; slice names the slice just written, if any.
func (b *builder) progress(slice string) {
	if b.o.Progress == nil {
		return
	}
	b.mu.Lock()
	done := b.finished.Load()
	var names []string
	for sb := range b.active {
		done += min(sb.done.Load(), 2*sb.sh.size)
		names = append(names, sb.mat.String())
	}
	b.mu.Unlock()
	if slice == "" {
		slice = strings.Join(names, ",")
	}
	elapsed := time.Since(b.start)
	p := Progress{Slice: slice, SlicesDone: int(b.slicesDone.Load()), Slices: len(b.slices), Done: done, Total: b.total, Elapsed: elapsed}
	if s := elapsed.Seconds(); s > 0 {
		p.Rate = float64(done) / s
	}
	if p.Rate > 0 && b.total > done {
		p.ETA = time.Duration(float64(b.total-done) / p.Rate * float64(time.Second))
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p.Memory = ms.Sys - ms.HeapReleased
	b.report.Lock()
	b.o.Progress(p)
	b.report.Unlock()
}
