package fleet

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/nechecb/nechecb/internal/workunit"
)

// CoordinatorOptions configure a Coordinator.
type CoordinatorOptions struct {
	// Run names the run's subjects; a random id when empty.
	Run string
	// AckWait is how long a unit may go without word from its worker
	// before it goes to another (DefaultAckWait when 0).
	AckWait time.Duration
	// MaxRejects is how many results of one unit may be rejected (or
	// reported unplayable) before the run fails (3 when 0).
	MaxRejects int
	// InlineLimit is the size above which weights travel through the
	// weight store rather than inside every unit (4096 when 0; negative:
	// always through the store).
	InlineLimit int
	// Log hears of rejected results and other events worth a line.
	Log func(string)
	// Status, when set, is called every StatusEvery (2s when 0) with the
	// fleet's figures.
	Status      func(Status)
	StatusEvery time.Duration
}

// Status is what the coordinator's status line shows.
type Status struct {
	// Workers counts the worker processes heard from lately (their
	// heartbeats, every 2 s).
	Workers int
	// Queued and InFlight count the units waiting for a worker and those
	// a worker holds, over every run on the server.
	Queued, InFlight int
	// Done counts this coordinator's accepted units and Games their games;
	// GamesPerSec is their rate since the coordinator started.
	Done, Games int
	GamesPerSec float64
	// Rejected counts rejected results, Duplicates results dropped because
	// their unit was already done.
	Rejected, Duplicates int
}

// String writes the status line.
func (s Status) String() string {
	line := fmt.Sprintf("fleet: workers %d, queued %d, in flight %d, done %d units (%d games), %.1f games/s",
		s.Workers, s.Queued, s.InFlight, s.Done, s.Games, s.GamesPerSec)
	if s.Rejected > 0 || s.Duplicates > 0 {
		line += fmt.Sprintf(", rejected %d, duplicates %d", s.Rejected, s.Duplicates)
	}
	return line
}

// Coordinator hands units to the fleet and collects their results.
type Coordinator struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	obs     jetstream.ObjectStore
	opts    CoordinatorOptions
	run     string
	workers jetstream.Consumer
	consume jetstream.ConsumeContext
	hbSub   *nats.Subscription
	start   time.Time
	stop    chan struct{}
	wg      sync.WaitGroup

	mu      sync.Mutex
	seq     int
	pending map[string]*pending
	stored  map[string]bool
	beats   map[string]beat
	status  Status
}

// beat is the last heartbeat of a worker: when, and how many units it
// plays at once.
type beat struct {
	at    time.Time
	slots int
}

// pending is a unit published and not yet done.
type pending struct {
	unit    *workunit.Unit
	data    []byte
	batch   *batch
	index   int
	rejects int
}

// batch is the units of one Run call.
type batch struct {
	results []*workunit.Result
	left    int
	err     error
	wake    chan struct{}
}

func (b *batch) notify() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// NewCoordinator sets up the streams, the workers' consumer and this
// run's result consumer on connection nc.
func NewCoordinator(ctx context.Context, nc *nats.Conn, o CoordinatorOptions) (*Coordinator, error) {
	if o.AckWait <= 0 {
		o.AckWait = DefaultAckWait
	}
	if o.MaxRejects <= 0 {
		o.MaxRejects = 3
	}
	if o.InlineLimit == 0 {
		o.InlineLimit = 4096
	}
	if o.StatusEvery <= 0 {
		o.StatusEvery = 2 * time.Second
	}
	if o.Log == nil {
		o.Log = func(string) {}
	}
	if o.Run == "" {
		o.Run = nuid.Next()
	}
	if _, ok := runOf(UnitSubject+o.Run, UnitSubject); !ok {
		return nil, fmt.Errorf("run id %q may not hold '.', '*', '>' or spaces", o.Run)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	c := &Coordinator{nc: nc, js: js, opts: o, run: o.Run, start: time.Now(), stop: make(chan struct{}),
		pending: map[string]*pending{}, stored: map[string]bool{}, beats: map[string]beat{}}
	if c.obs, err = ensureStreams(ctx, js); err != nil {
		return nil, err
	}
	if c.workers, err = js.CreateOrUpdateConsumer(ctx, UnitStream, workerConsumerConfig(o.AckWait)); err != nil {
		return nil, fmt.Errorf("consumer %s: %w", WorkerConsumer, err)
	}
	results, err := js.CreateOrUpdateConsumer(ctx, ResultStream, jetstream.ConsumerConfig{Durable: "coordinator-" + c.run,
		AckPolicy: jetstream.AckExplicitPolicy, FilterSubject: ResultSubject + c.run, MaxDeliver: -1, AckWait: time.Minute})
	if err != nil {
		return nil, fmt.Errorf("result consumer: %w", err)
	}
	if c.consume, err = results.Consume(c.receive); err != nil {
		return nil, fmt.Errorf("result consumer: %w", err)
	}
	if c.hbSub, err = nc.Subscribe(heartbeatSubject, func(m *nats.Msg) {
		c.mu.Lock()
		slots, err := strconv.Atoi(m.Header.Get(slotsHeader))
		if err != nil || slots < 1 {
			slots = 1
		}
		c.beats[string(m.Data)] = beat{at: time.Now(), slots: slots}
		c.mu.Unlock()
	}); err != nil {
		return nil, err
	}
	nc.Publish(pingSubject, nil)
	if o.Status != nil {
		c.wg.Add(1)
		go c.statusLoop()
	}
	return c, nil
}

// Run publishes units, waits for a valid result of each and returns them
// in the order of units. It sets each unit's version and id. A unit whose
// results are rejected more than MaxRejects times fails the run.
func (c *Coordinator) Run(ctx context.Context, units []*workunit.Unit) ([]*workunit.Result, error) {
	b := &batch{results: make([]*workunit.Result, len(units)), left: len(units), wake: make(chan struct{}, 1)}
	var published []string
	defer func() {
		// Units of an abandoned batch are no one's: forget them.
		c.mu.Lock()
		for _, id := range published {
			delete(c.pending, id)
		}
		c.mu.Unlock()
	}()
	for i, u := range units {
		if err := c.storeWeights(ctx, u); err != nil {
			return nil, err
		}
		c.mu.Lock()
		c.seq++
		u.Version = workunit.Version
		u.ID = fmt.Sprintf("%s-%08d", c.run, c.seq)
		c.mu.Unlock()
		data, err := u.Encode()
		if err != nil {
			return nil, err
		}
		p := &pending{unit: u, data: data, batch: b, index: i}
		c.mu.Lock()
		c.pending[u.ID] = p
		c.mu.Unlock()
		published = append(published, u.ID)
		if err := c.publish(ctx, p, u.ID); err != nil {
			return nil, err
		}
	}
	for {
		c.mu.Lock()
		left, err := b.left, b.err
		c.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if left == 0 {
			return b.results, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-b.wake:
		}
	}
}

// publish puts a unit on the queue, retrying while the server is away.
// msgID lets JetStream drop a second copy of the same publication.
func (c *Coordinator) publish(ctx context.Context, p *pending, msgID string) error {
	for {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := c.js.Publish(pctx, UnitSubject+c.run, p.data, jetstream.WithMsgID(msgID))
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		c.opts.Log(fmt.Sprintf("publishing unit %s: %v; retrying", p.unit.ID, err))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// storeWeights moves weights above the inline limit to the weight store,
// each file once.
func (c *Coordinator) storeWeights(ctx context.Context, u *workunit.Unit) error {
	for i := range u.Cast {
		e := &u.Cast[i]
		if len(e.Data) == 0 || c.opts.InlineLimit > 0 && len(e.Data) <= c.opts.InlineLimit {
			continue
		}
		e.Hash = workunit.HashOf(e.Data)
		c.mu.Lock()
		have := c.stored[e.Hash]
		c.mu.Unlock()
		if !have {
			if _, err := c.obs.GetInfo(ctx, e.Hash); err != nil {
				if _, err := c.obs.PutBytes(ctx, e.Hash, e.Data); err != nil {
					return fmt.Errorf("storing weights %s: %w", e.Hash, err)
				}
			}
			c.mu.Lock()
			c.stored[e.Hash] = true
			c.mu.Unlock()
		}
		e.Data = nil
	}
	return nil
}

// receive handles one result message.
func (c *Coordinator) receive(m jetstream.Msg) {
	defer m.Ack()
	r, err := workunit.DecodeResult(m.Data())
	if err != nil {
		c.opts.Log(fmt.Sprintf("dropped a result that is not one: %v", err))
		c.mu.Lock()
		c.status.Rejected++
		c.mu.Unlock()
		return
	}
	c.mu.Lock()
	p := c.pending[r.ID]
	if p == nil {
		c.status.Duplicates++
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	err = nil
	if r.Error != "" {
		err = fmt.Errorf("worker could not play it: %s", r.Error)
	} else {
		err = workunit.Validate(p.unit, r)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending[r.ID] != p {
		c.status.Duplicates++
		return
	}
	b := p.batch
	if err != nil {
		c.status.Rejected++
		p.rejects++
		c.opts.Log(fmt.Sprintf("rejected the result of unit %s from worker %q: %v", r.ID, r.Worker, err))
		if p.rejects > c.opts.MaxRejects {
			b.err = fmt.Errorf("unit %s: %d results rejected, the last: %w", r.ID, p.rejects, err)
			b.notify()
			return
		}
		c.opts.Log(fmt.Sprintf("unit %s goes to the queue again", r.ID))
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := c.publish(ctx, p, fmt.Sprintf("%s/%d", r.ID, p.rejects)); err != nil {
				c.mu.Lock()
				b.err = fmt.Errorf("unit %s: publishing it again: %w", r.ID, err)
				c.mu.Unlock()
				b.notify()
			}
		}()
		return
	}
	delete(c.pending, r.ID)
	b.results[p.index] = r
	b.left--
	c.status.Done++
	c.status.Games += len(r.Games)
	b.notify()
}

// Status returns the fleet's figures now.
func (c *Coordinator) Status(ctx context.Context) Status {
	c.mu.Lock()
	s := c.status
	for w, b := range c.beats {
		if time.Since(b.at) > 3*heartbeatEvery {
			delete(c.beats, w)
		}
	}
	s.Workers = len(c.beats)
	c.mu.Unlock()
	s.GamesPerSec = float64(s.Games) / max(time.Since(c.start).Seconds(), 1e-9)
	ictx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if info, err := c.workers.Info(ictx); err == nil {
		s.Queued, s.InFlight = int(info.NumPending), info.NumAckPending
	}
	return s
}

// Slots returns how many units the workers heard from lately play at once
// (the sum of their --concurrency, at least 1).
func (c *Coordinator) Slots() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, b := range c.beats {
		if time.Since(b.at) <= 3*heartbeatEvery {
			n += b.slots
		}
	}
	return max(n, 1)
}

func (c *Coordinator) statusLoop() {
	defer c.wg.Done()
	t := time.NewTicker(c.opts.StatusEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.opts.Status(c.Status(context.Background()))
		}
	}
}

// Close stops collecting results and takes the run's units and results
// off the server.
func (c *Coordinator) Close() error {
	close(c.stop)
	c.wg.Wait()
	c.consume.Stop()
	c.hbSub.Unsubscribe()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var errs []error
	if s, err := c.js.Stream(ctx, UnitStream); err == nil {
		errs = append(errs, s.Purge(ctx, jetstream.WithPurgeSubject(UnitSubject+c.run)))
	}
	if s, err := c.js.Stream(ctx, ResultStream); err == nil {
		errs = append(errs, s.DeleteConsumer(ctx, "coordinator-"+c.run))
		errs = append(errs, s.Purge(ctx, jetstream.WithPurgeSubject(ResultSubject+c.run)))
	}
	return errors.Join(errs...)
}
