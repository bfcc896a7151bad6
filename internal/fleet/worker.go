package fleet

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nechecb/nechecb/internal/workunit"
)

// Execute plays a unit. Its result must depend only on the unit. An error
// means the unit cannot be played here (an evaluator that will not load);
// a cancelled ctx ends it early, and the unit goes back to the queue.
type Execute func(ctx context.Context, u *workunit.Unit) (*workunit.Result, error)

// WorkerOptions configure a worker.
type WorkerOptions struct {
	// Name identifies the worker in results and logs (host and process id
	// when empty).
	Name string
	// Concurrency is the number of units played at once (1 when 0).
	Concurrency int
	// Execute plays a unit.
	Execute Execute
	// Log hears of what goes wrong: bad units, lost connections.
	Log func(string)
	// Playing, when set, is called as a unit starts, and Played after its
	// result is delivered.
	Playing, Played func(u *workunit.Unit)
}

// Worker pulls units from the server of nc and plays them until ctx ends.
// It survives the server going away: it waits, reconnects and goes on. A
// unit it is playing when ctx ends goes back to the queue at once.
func Worker(ctx context.Context, nc *nats.Conn, o WorkerOptions) error {
	if o.Execute == nil {
		return errors.New("fleet: a worker needs an Execute function")
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 1
	}
	if o.Name == "" {
		host, _ := os.Hostname()
		o.Name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	if o.Log == nil {
		o.Log = func(string) {}
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	w := &worker{js: js, o: o}
	beat := func() {
		m := nats.NewMsg(heartbeatSubject)
		m.Data = []byte(o.Name)
		m.Header.Set(slotsHeader, strconv.Itoa(o.Concurrency))
		nc.PublishMsg(m)
	}
	ping, err := nc.Subscribe(pingSubject, func(*nats.Msg) { beat() })
	if err != nil {
		return err
	}
	defer ping.Unsubscribe()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		for {
			beat()
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	for i := range o.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop(ctx, fmt.Sprintf("%s/%d", o.Name, i))
		}()
	}
	wg.Wait()
	w.sends.Wait()
	return nil
}

// worker is the state the slots of one worker share.
type worker struct {
	js jetstream.JetStream
	o  WorkerOptions

	// sends counts the results being delivered.
	sends sync.WaitGroup

	blobs workunit.Cache[[]byte]

	mu   sync.Mutex
	cons jetstream.Consumer
	obs  jetstream.ObjectStore
}

// consumer returns the workers' consumer, creating the streams and the
// consumer when no coordinator has yet.
func (w *worker) consumer(ctx context.Context) (jetstream.Consumer, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cons != nil {
		return w.cons, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	obs, err := ensureStreams(ctx, w.js)
	if err != nil {
		return nil, err
	}
	cons, err := w.js.Consumer(ctx, UnitStream, WorkerConsumer)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		cons, err = w.js.CreateConsumer(ctx, UnitStream, workerConsumerConfig(DefaultAckWait))
	}
	if err != nil {
		return nil, err
	}
	w.cons, w.obs = cons, obs
	return cons, nil
}

// forget drops the consumer after an error, so that the next pull looks
// it up again (the server may have restarted).
func (w *worker) forget() {
	w.mu.Lock()
	w.cons = nil
	w.mu.Unlock()
}

// loop is one slot: pull a unit, play it, deliver the result.
func (w *worker) loop(ctx context.Context, slot string) {
	quiet := 0 // errors in a row, to log only the first
	pause := func() {
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
	for ctx.Err() == nil {
		cons, err := w.consumer(ctx)
		if err != nil {
			if quiet++; quiet == 1 && ctx.Err() == nil {
				w.o.Log(fmt.Sprintf("waiting for the NATS server: %v", err))
			}
			pause()
			continue
		}
		msgs, err := cons.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			w.forget()
			pause()
			continue
		}
		for m := range msgs.Messages() {
			quiet = 0
			w.handle(ctx, slot, m)
		}
		if err := msgs.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
			w.forget()
			pause()
		}
	}
}

// handle plays one unit message and acknowledges it once its result is
// stored on the server.
func (w *worker) handle(ctx context.Context, slot string, m jetstream.Msg) {
	run, ok := runOf(m.Subject(), UnitSubject)
	if !ok {
		w.o.Log(fmt.Sprintf("dropped a message on %s: not a unit subject", m.Subject()))
		m.Term()
		return
	}
	u, err := workunit.DecodeUnit(m.Data())
	if err != nil {
		w.o.Log(fmt.Sprintf("dropped a bad unit: %v", err))
		m.Term()
		return
	}
	if ctx.Err() != nil {
		m.Nak()
		return
	}
	// Tell the server we are on it, well within the ack wait.
	every := DefaultAckWait / 4
	if info := w.cachedAckWait(); info > 0 {
		every = info / 4
	}
	playCtx, stop := context.WithCancel(ctx)
	progress := make(chan struct{})
	go func() {
		defer close(progress)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-playCtx.Done():
				return
			case <-t.C:
				m.InProgress()
			}
		}
	}()
	if w.o.Playing != nil {
		w.o.Playing(u)
	}
	r, err := w.play(playCtx, u)
	stop()
	<-progress
	if ctx.Err() != nil {
		m.Nak()
		return
	}
	if err != nil {
		w.o.Log(fmt.Sprintf("cannot play unit %s: %v", u.ID, err))
		r = &workunit.Result{ID: u.ID, Error: err.Error()}
	}
	r.Version, r.ID, r.Worker = workunit.Version, u.ID, slot
	data, err := r.Encode()
	if err != nil {
		m.Nak()
		return
	}
	// The result must be stored before the unit is acknowledged: a lost
	// result would lose the unit. The slot goes on to its next unit while
	// the server stores this one; deliver waits for the store's word.
	w.sends.Add(1)
	go func() {
		defer w.sends.Done()
		w.deliver(ctx, run, u, m, data)
	}()
}

// deliver publishes a unit's result and then acknowledges the unit, or
// gives the unit back when the result cannot be stored.
func (w *worker) deliver(ctx context.Context, run string, u *workunit.Unit, m jetstream.Msg, data []byte) {
	subject := ResultSubject + run
	var err error
	if f, aerr := w.js.PublishAsync(subject, data); aerr == nil {
		select {
		case <-f.Ok():
		case err = <-f.Err():
		case <-time.After(5 * time.Second):
			err = errors.New("no word from the server")
		}
	} else {
		err = aerr
	}
	for attempt := 0; err != nil; attempt++ {
		if ctx.Err() != nil || attempt >= 20 {
			w.o.Log(fmt.Sprintf("could not deliver the result of unit %s: %v; it will be played again", u.ID, err))
			m.Nak()
			return
		}
		time.Sleep(500 * time.Millisecond)
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err = w.js.Publish(pctx, subject, data)
		cancel()
	}
	m.Ack()
	if w.o.Played != nil {
		w.o.Played(u)
	}
}

// cachedAckWait returns the consumer's ack wait as last seen.
func (w *worker) cachedAckWait() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cons == nil {
		return 0
	}
	if info := w.cons.CachedInfo(); info != nil {
		return info.Config.AckWait
	}
	return 0
}

// play fetches the weights a unit names by hash, then plays it.
func (w *worker) play(ctx context.Context, u *workunit.Unit) (*workunit.Result, error) {
	for i := range u.Cast {
		e := &u.Cast[i]
		if len(e.Data) > 0 || e.Hash == "" {
			continue
		}
		data, err := w.blob(ctx, e.Hash)
		if err != nil {
			return nil, err
		}
		e.Data = data
	}
	return w.o.Execute(ctx, u)
}

// blob returns the weight file of hash, from the store the first time.
func (w *worker) blob(ctx context.Context, hash string) ([]byte, error) {
	if data, ok := w.blobs.Get(hash); ok {
		return data, nil
	}
	w.mu.Lock()
	obs := w.obs
	w.mu.Unlock()
	if obs == nil {
		return nil, errors.New("no weight store")
	}
	data, err := obs.GetBytes(ctx, hash)
	if err != nil {
		return nil, fmt.Errorf("weights %s: %w", hash, err)
	}
	if workunit.HashOf(data) != hash {
		return nil, fmt.Errorf("weights %s: the stored file does not match its hash", hash)
	}
	w.blobs.Put(hash, data)
	return data, nil
}
