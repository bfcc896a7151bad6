// The page: it shows the state the server keeps, sends the user's actions
// to the server, and follows the engine through the event stream.
import { call, listen, saveLink } from './api.js';
import { Board } from './board.js';
import { Analysis, Settings, GamePanel } from './panels.js';

const $ = id => document.getElementById(id);

// stats are figures the browser test reads: the page's load time and the
// delay from a search report leaving the server to its display.
window.nechecbStats = { infoDelays: [], states: 0 };

let state = null;
const board = new Board($('board'), full => act('/api/play', { moves: [full] }));
const analysis = new Analysis($('lines'), $('graph'), {
  play: moves => act('/api/play', { moves }),
  goto: ply => act('/api/goto', { ply }),
  arrow: path => {
    if (String(path) === String(board.arrow)) return;
    board.arrow = path;
    if (state) board.draw();
  },
});
const settings = new Settings($('settings'), $('settings-notes'), say);
const gamePanel = new GamePanel({ act, say, board, show });

// say shows a message in the status line.
function say(text) { $('status').textContent = text; }

// act sends an action and shows the state it answers; an error is shown
// and the state stays as it was.
async function act(path, body, raw) {
  try {
    const v = await call(path, body, raw);
    if (v && v.version !== undefined) show(v);
    return v;
  } catch (err) {
    say(err.message);
    return null;
  }
}

// show displays a state of the server.
function show(v) {
  if (state && v.version < state.version) return;
  state = v;
  window.nechecbStats.states++;
  board.arrow = null;
  board.show(v);
  analysis.show(v);
  showResult(v);
  showMoves(v);
  showControls(v);
  gamePanel.show(v);
}

function showResult(v) {
  $('result').textContent = v.result.over ? `${v.result.text} (${v.result.pdn})` : `${v.side === 'black' ? 'Black' : 'White'} to move`;
  const db = $('db-value');
  db.replaceChildren();
  db.className = v.db ? 'db-' + v.db : '';
  if (!v.db) return;
  db.append(`Database: ${v.db} for ${v.side}. Moves: `);
  for (const m of v.legal || []) {
    const span = document.createElement('span');
    span.className = 'db-' + (m.db || 'unknown');
    span.textContent = `${m.text} ${m.db || '?'} `;
    db.appendChild(span);
  }
}

// showMoves writes the game's tree as PDN does: the main line, each side
// line in parentheses after the move it replaces. Every move is a button
// that shows the position after it; the moves of the line shown are
// marked, with the game analysis's marks.
function showMoves(v) {
  const box = $('moves');
  box.replaceChildren();
  const onLine = new Map((v.moves || []).map(m => [m.id, m]));
  const marks = { '??': 'blunder', '?': 'mistake', '?!': 'inaccuracy' };
  const write = (parent, moves, side) => {
    let numbered = true;
    for (const m of moves) {
      if (m.side === 'black' || numbered) parent.append(`${m.number}${m.side === 'black' ? '.' : '...'} `);
      numbered = false;
      const b = document.createElement('button');
      b.textContent = m.text;
      b.dataset.id = m.id;
      const lm = onLine.get(m.id);
      b.setAttribute('aria-label', `move ${m.number} ${m.side} ${m.text}` + (side ? ', side line' : '') +
        (lm && lm.mark ? `, ${marks[lm.mark]}, lost ${lm.drop.toFixed(2)} of the expected score` : ''));
      if (lm) b.classList.add('line');
      if (lm && lm.mark) {
        b.classList.add('mark');
        b.title = `${marks[lm.mark]}: lost ${lm.drop.toFixed(2)} of the expected score`;
        b.appendChild(document.createElement('span')).textContent = lm.mark;
      }
      if (m.id === v.node) { b.classList.add('cur'); b.setAttribute('aria-current', 'true'); }
      b.addEventListener('click', () => act('/api/node', { id: m.id, action: 'goto' }));
      parent.append(b, ' ');
      for (const alt of m.vars || []) {
        const span = document.createElement('span');
        span.className = 'var';
        span.setAttribute('role', 'group');
        span.setAttribute('aria-label', 'side line');
        span.append('(');
        write(span, alt, true);
        span.lastChild.remove(); // the space after its last move or side line
        span.append(')');
        parent.append(span, ' ');
        numbered = true;
      }
    }
  };
  write(box, v.tree || [], false);
  $('var-promote').disabled = $('var-delete').disabled = !v.sideLine;
  const cur = box.querySelector('.cur');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

function showControls(v) {
  $('eng-black').checked = v.engine[0];
  $('eng-white').checked = v.engine[1];
  $('analyse').setAttribute('aria-pressed', String(v.analysing));
  $('analyse').textContent = v.analysing ? 'Stop analysis' : 'Analyse';
  const reviewing = v.searching === 'review';
  $('review').setAttribute('aria-pressed', String(reviewing));
  $('review').textContent = reviewing ? 'Stop the game analysis' : 'Analyse the game';
  $('movenow').disabled = v.searching !== 'play';
  if (!$('level-kind').dataset.touched) {
    const l = v.level;
    $('level-kind').value = l.kind;
    $('lv-movetime').value = l.movetimeMs / 1000;
    $('lv-depth').value = l.depth;
    $('lv-clock').value = l.clockS / 60;
    $('lv-inc').value = l.incS;
  }
  showLevelFields();
  showClocks();
}

// showClocks writes each side's time, the running one counted down here.
function showClocks() {
  if (!state) return;
  const c = state.clock, on = state.level.kind === 'clock';
  const since = performance.now() - (state.clockAt || (state.clockAt = performance.now()));
  const fmt = ms => { const s = Math.max(0, Math.ceil(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`; };
  const text = side => on ? `${side === 'black' ? 'Black' : 'White'} ${fmt(c[side] - (c.running === side ? since : 0))}` : '';
  const [top, bottom] = board.flipped ? ['white', 'black'] : ['black', 'white'];
  $('clock-top').textContent = text(top);
  $('clock-bottom').textContent = text(bottom);
  $('clock-top').classList.toggle('running', on && c.running === top);
  $('clock-bottom').classList.toggle('running', on && c.running === bottom);
}
setInterval(showClocks, 250);

function showLevelFields() {
  const kind = $('level-kind').value;
  for (const k of ['movetime', 'depth', 'clock']) $('level-' + k).hidden = k !== kind;
}

// level reads the level fields.
function level() {
  return {
    kind: $('level-kind').value,
    movetimeMs: Math.round(Number($('lv-movetime').value) * 1000),
    depth: Number($('lv-depth').value),
    clockS: Math.round(Number($('lv-clock').value) * 60),
    incS: Number($('lv-inc').value),
  };
}

function engineSides() {
  return { black: $('eng-black').checked, white: $('eng-white').checked, level: state ? levelOrState() : level() };
}

// levelOrState sends the fields' level once the user touched them, else
// the server's.
function levelOrState() { return $('level-kind').dataset.touched ? level() : state.level; }

// navTarget is the ply a navigation under way goes to, so that keys
// pressed faster than the server answers count from it.
let navTarget = null;
// navQueue chains the navigation requests: sent at once, they could reach
// the server out of order and leave the cursor on an earlier ply.
let navQueue = Promise.resolve();

function navigate(to) {
  if (!state) return;
  const n = (state.moves || []).length;
  const from = navTarget ?? state.cursor;
  const ply = { first: 0, back: from - 1, fwd: from + 1, last: n }[to];
  if (ply < 0 || ply > n || ply === from) return;
  navTarget = ply;
  navQueue = navQueue.then(() => act('/api/goto', { ply })).finally(() => { if (navTarget === ply) navTarget = null; });
}

function wire() {
  for (const to of ['first', 'back', 'fwd', 'last']) $('nav-' + to).addEventListener('click', () => navigate(to));
  $('takeback').addEventListener('click', () => act('/api/undo', {}));
  $('var-promote').addEventListener('click', () => act('/api/node', { id: state.node, action: 'promote' }));
  $('var-delete').addEventListener('click', () => act('/api/node', { id: state.sideLine, action: 'delete' }));
  $('movenow').addEventListener('click', () => call('/api/movenow', {}).catch(e => say(e.message)));
  $('go').addEventListener('click', () => act('/api/go', {}));
  $('new-game').addEventListener('click', () => act('/api/new', {}));
  $('review').addEventListener('click', () => {
    if (state.searching === 'review') act('/api/analyse', { on: false });
    else act('/api/review', { moveTimeMs: Math.round(Number($('review-time').value) * 1000) });
  });
  $('analyse').addEventListener('click', () => act('/api/analyse', { on: !state.analysing }));
  for (const id of ['eng-black', 'eng-white']) $(id).addEventListener('change', () => act('/api/engine', engineSides()));
  $('level-kind').addEventListener('change', () => { $('level-kind').dataset.touched = '1'; showLevelFields(); });
  for (const id of ['lv-movetime', 'lv-depth', 'lv-clock', 'lv-inc']) $(id).addEventListener('change', () => { $('level-kind').dataset.touched = '1'; });
  $('apply-level').addEventListener('click', () => act('/api/engine', { ...engineSides(), level: level() }));
  $('multipv').addEventListener('change', () => settings.set('MultiPV', $('multipv').value));
  $('flip').addEventListener('click', () => {
    board.flipped = !board.flipped;
    $('flip').setAttribute('aria-pressed', String(board.flipped));
    board.draw();
    showClocks();
  });
  $('show-numbers').addEventListener('change', e => { board.numbers = e.target.checked; board.draw(); });
  $('show-coords').addEventListener('change', e => { board.coords = e.target.checked; board.draw(); });
  $('move-form').addEventListener('submit', e => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    if (text) act('/api/play', { moves: [text] }).then(v => { if (v) $('move-input').value = ''; });
  });
  document.addEventListener('keydown', e => {
    if (e.target.closest('input, textarea, select')) return;
    const to = { ArrowLeft: 'back', ArrowRight: 'fwd', Home: 'first', End: 'last' }[e.key];
    if (to) { e.preventDefault(); navigate(to); }
  });
  saveLink($('pdn-export'), '/api/pdn', 'nechecb-game.pdn');
}

async function start() {
  wire();
  listen({
    state: v => show(v),
    info: i => {
      window.nechecbStats.infoDelays.push(Date.now() - i.sent);
      analysis.info(i, state);
    },
    search: s => analysis.begin(s),
    note: n => say(n.text),
  });
  const v = await act('/api/state');
  if (!v) return; // the status line, or the failure's message, says why
  say(`Evaluator ${v.evaluator}` + (v.dbPieces ? `, endgame database of ${v.dbPieces} pieces` : ''));
  if (v.build) {
    $('build-note').textContent = v.build;
    $('build-note').hidden = false;
  }
  await settings.load();
  const mpv = settings.value('MultiPV');
  if (mpv) $('multipv').value = mpv;
  gamePanel.load();
  window.nechecbStats.readyMs = performance.now();
  document.body.dataset.ready = '1';
}

start();
