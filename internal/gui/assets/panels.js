// The side panels: the engine's lines and the score graph, the engine
// settings built from the session's option table, and the game panel
// (PDN, FEN, ballots, setup).
import { call } from './api.js';

const $ = id => document.getElementById(id);

// formatScore writes a search score: "+0.35", "win in 7", "db win".
export function formatScore(s) {
  switch (s.kind) {
    case 'win': return `win in ${s.value}`;
    case 'loss': return `loss in ${s.value}`;
    case 'dbwin': return 'db win';
    case 'dbloss': return 'db loss';
  }
  const v = s.value / 100;
  return (v >= 0 ? '+' : '') + v.toFixed(2);
}

function count(n) {
  if (n >= 1e7) return `${Math.round(n / 1e6)}M`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

// Analysis shows the lines of the search under way, with clickable moves,
// and the score graph of the game.
export class Analysis {
  constructor(table, graph, hooks) {
    this.body = table.tBodies[0];
    this.graph = graph;
    this.hooks = hooks;
    this.search = 0;
    this.lines = [];
    this.scores = new Map();
    this.state = null;
  }

  // begin starts the lines of a new search.
  begin(s) {
    this.search = s.id;
    this.lines = [];
    this.drawLines();
  }

  // show takes the lines and the scores of a new state.
  show(v) {
    this.state = v;
    this.scores = new Map((v.scores || []).map(p => [p.ply, p.score]));
    if (v.infos && v.infos.length && v.infos[0].search >= this.search) {
      this.search = v.infos[0].search;
      this.lines = v.infos.filter(i => i.depth);
    } else if (!v.searching) {
      this.lines = [];
    }
    this.drawLines();
    this.drawGraph();
  }

  // info takes one search report.
  info(i, state) {
    if (i.search < this.search) return;
    this.search = i.search;
    this.lines[i.multipv - 1] = i;
    if (i.multipv === 1) {
      let s = i.score.kind === 'cp' ? i.score.value : (i.score.kind.endsWith('win') ? 1000 : -1000);
      s = Math.max(-1000, Math.min(1000, s));
      if (state && state.cursor === i.ply && state.side === 'white') s = -s;
      else if (!state || state.cursor !== i.ply) s = null;
      if (s !== null) { this.scores.set(i.ply, s); this.drawGraph(); }
    }
    this.drawLines();
  }

  drawLines() {
    this.body.replaceChildren();
    const showing = this.state && this.lines.length && this.lines[0].ply === this.state.cursor;
    this.lines.forEach(l => {
      if (!l || !showing) return;
      const tr = this.body.insertRow();
      for (const t of [`${l.depth}/${l.seldepth}`, formatScore(l.score), count(l.nodes), `${count(l.nps)}/s`]) tr.insertCell().textContent = t;
      const cell = tr.insertCell();
      l.pv.forEach((m, k) => {
        const b = document.createElement('button');
        b.className = 'pvmove';
        b.textContent = m;
        b.setAttribute('aria-label', `play the line up to ${m}`);
        b.addEventListener('click', () => this.hooks.play(l.pvFull.slice(0, k + 1)));
        cell.appendChild(b);
      });
    });
    const best = showing && this.lines[0] ? this.lines[0].path : null;
    this.hooks.arrow(best);
  }

  drawGraph() {
    const g = this.graph, NS = 'http://www.w3.org/2000/svg';
    g.replaceChildren();
    const n = Math.max(1, (this.state && this.state.moves ? this.state.moves.length : 0));
    const X = ply => 10 + ply * 380 / n, Y = s => 60 - s * 50 / 1000;
    const mk = (tag, attrs) => { const e = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); g.appendChild(e); return e; };
    mk('line', { x1: 10, y1: 60, x2: 390, y2: 60, class: 'axis' });
    const pts = [...this.scores.entries()].sort((a, b) => a[0] - b[0]);
    if (pts.length > 1) mk('polyline', { points: pts.map(([p, s]) => `${X(p)},${Y(s)}`).join(' '), class: 'line' });
    for (let ply = 0; ply <= n; ply++) {
      const hit = mk('rect', { x: X(ply) - 190 / n, y: 0, width: 380 / n, height: 120, class: 'hit', 'data-ply': ply });
      hit.addEventListener('click', () => this.hooks.goto(ply));
    }
    for (const [p, s] of pts) {
      const c = mk('circle', { cx: X(p), cy: Y(s), r: 3, class: 'pt' + (this.state && p === this.state.cursor ? ' cur' : ''), 'data-ply': p });
      c.addEventListener('click', () => this.hooks.goto(p));
      c.appendChild(document.createElementNS(NS, 'title')).textContent = `ply ${p}: ${(s / 100).toFixed(2)} for Black`;
    }
  }
}

// Settings is the engine settings form, one field for each option the
// session announces.
export class Settings {
  constructor(form, notes, say) {
    this.form = form;
    this.notes = notes;
    this.say = say;
    this.options = [];
    form.addEventListener('submit', e => e.preventDefault());
  }

  value(name) {
    const o = this.options.find(o => o.name === name);
    return o ? o.value : undefined;
  }

  async load() {
    try { this.draw((await call('/api/options')).options); } catch (e) { this.say(e.message); }
  }

  // set puts one option's value in force; an error names what was wrong.
  async set(name, value) {
    try {
      const a = await call('/api/options', { name, value: String(value) });
      this.draw(a.options);
      this.notes.textContent = [`${name} ${value}`, ...(a.notes || [])].join('; ');
    } catch (e) {
      this.notes.textContent = e.message;
      this.say(e.message);
      this.draw(this.options);
    }
  }

  draw(options) {
    this.options = options;
    this.form.replaceChildren();
    for (const o of options) {
      const label = document.createElement('label');
      label.append(o.name + ' ');
      let input;
      if (o.kind === 'combo') {
        input = document.createElement('select');
        for (const v of o.values) input.add(new Option(v, v, false, v === o.value));
      } else {
        input = document.createElement('input');
        if (o.kind === 'check') { input.type = 'checkbox'; input.checked = o.value === 'true'; }
        if (o.kind === 'spin') { input.type = 'number'; input.min = o.min; input.max = o.max; }
        if (o.kind !== 'check') input.value = o.value;
        if (o.kind === 'string') input.size = 28;
      }
      input.name = o.name;
      input.setAttribute('aria-describedby', 'help-' + o.name);
      input.addEventListener('change', () => this.set(o.name, o.kind === 'check' ? input.checked : input.value));
      label.appendChild(input);
      const help = document.createElement('small');
      help.id = 'help-' + o.name;
      help.textContent = o.help;
      label.appendChild(help);
      this.form.appendChild(label);
    }
  }
}

// GamePanel holds PDN import and export, the collection's games, FEN in
// and out, the ballots and the setup mode.
export class GamePanel {
  constructor({ act, say, board, show }) {
    this.act = act;
    this.say = say;
    this.board = board;
    this.state = null;
    $('pdn-import').addEventListener('click', () => this.importText($('pdn-text').value));
    $('pdn-file').addEventListener('change', async e => {
      const f = e.target.files[0];
      if (f) this.importText(await f.text());
    });
    $('games').addEventListener('change', e => act('/api/pdn/game', { index: Number(e.target.value) }));
    $('fen-set').addEventListener('click', () => act('/api/new', { fen: $('fen').value.trim() }));
    $('ballot-start').addEventListener('click', () => act('/api/new', { ballot: $('ballot').value }));
    $('setup').addEventListener('click', () => this.setup(!board.setup));
    $('setup-clear').addEventListener('click', () => { board.setup = new Array(33).fill(''); board.draw(); });
    $('setup-done').addEventListener('click', async () => {
      const v = await act('/api/new', { fen: board.setupFEN($('setup-side').value) });
      if (v) this.setup(false);
    });
    this.show = this.show.bind(this);
    this.redraw = show;
  }

  async importText(text) {
    const v = await this.act('/api/pdn', text, true);
    if (v) this.say(`${v.games.length} game(s) read` + (v.skipped && v.skipped.length ? `, ${v.skipped.length} skipped: ${v.skipped[0]}` : ''));
  }

  setup(on) {
    const b = this.board;
    b.setup = on ? [...this.state.pieces] : null;
    b.sel = [];
    $('setup').setAttribute('aria-pressed', String(on));
    $('setup-tools').hidden = !on;
    if (on) $('setup-side').value = this.state.side === 'white' ? 'W' : 'B';
    b.draw();
  }

  show(v) {
    this.state = v;
    if (document.activeElement !== $('fen')) $('fen').value = v.fen;
    const games = v.games || [];
    $('games-row').hidden = games.length === 0;
    const sel = $('games');
    if (sel.options.length !== games.length || (games[0] && sel.options[0].text !== games[0])) {
      sel.replaceChildren(...games.map((g, i) => new Option(g, String(i))));
    }
    sel.value = String(v.gameIndex);
  }

  async load() {
    try {
      const b = await call('/api/ballots');
      $('ballots').replaceChildren(...[...b.two, ...b.three].map(n => new Option(n)));
    } catch (e) { this.say(e.message); }
  }
}
