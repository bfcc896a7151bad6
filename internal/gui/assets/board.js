// The SVG board: squares, pieces, square numbers and coordinates, the last
// move, the best-move arrow, and move entry by click-click, drag or the
// keyboard (Tab to a square, Enter), a capture square by square.
const NS = 'http://www.w3.org/2000/svg';
const names = { '': 'empty', b: 'black man', w: 'white man', B: 'black king', W: 'white king' };
const cycle = ['', 'b', 'B', 'w', 'W'];

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function startsWith(path, prefix) {
  return prefix.every((sq, i) => path[i] === sq);
}

export class Board {
  // onMove gets the full-path text of a move entered on the board.
  constructor(svg, onMove) {
    this.svg = svg;
    this.onMove = onMove;
    this.flipped = false;
    this.numbers = true;
    this.coords = false;
    this.state = null;
    this.sel = [];
    this.arrow = null;
    this.setup = null;
    this.focusSq = 0;
    // readOnly boards (the match watch) take no moves: their squares are
    // not focusable buttons.
    this.readOnly = !onMove;
    svg.addEventListener('pointerdown', e => this.pointerDown(e));
    svg.addEventListener('pointerup', e => this.pointerUp(e));
    svg.addEventListener('pointermove', e => this.pointerMove(e));
    svg.addEventListener('keydown', e => {
      const sq = Number(e.target.dataset && e.target.dataset.sq);
      if (sq && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); this.focusSq = sq; this.square(sq); }
    });
  }

  // show draws a new state from the server; a selection survives only
  // while the position is the same.
  show(state) {
    if (!this.state || this.state.fen !== state.fen || this.state.version !== state.version) this.sel = [];
    this.state = state;
    this.draw();
  }

  // place returns the drawn column and row of a square.
  place(sq) {
    const s = this.state.squares[sq - 1];
    return this.flipped ? [7 - s.col, 7 - s.row] : [s.col, s.row];
  }

  centre(sq) {
    const [x, y] = this.place(sq);
    return [x + 0.5, y + 0.5];
  }

  pieces() { return this.setup || this.state.pieces; }

  legal() { return this.setup ? [] : (this.state.legal || []); }

  // candidates are the legal moves that begin with the squares entered.
  candidates() { return this.legal().filter(m => startsWith(m.path, this.sel)); }

  draw() {
    const svg = this.svg;
    const had = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.sq;
    svg.replaceChildren();
    svg.classList.toggle('setup', !!this.setup);
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) {
      if ((x + y) % 2 === 0) el('rect', { x, y, width: 1, height: 1, class: 'light' }, svg);
    }
    const last = !this.setup && this.state.last ? this.state.last.path : [];
    const cands = this.sel.length ? this.candidates() : [];
    const targets = new Set(cands.map(m => m.path[this.sel.length]));
    const pcs = this.pieces();
    for (let sq = 1; sq <= 32; sq++) this.drawSquare(sq, pcs[sq], last, targets);
    if (this.sel.length > 1) {
      el('polyline', { points: this.sel.map(sq => this.centre(sq).join(',')).join(' '), class: 'path' }, svg);
    }
    for (const sq of targets) {
      const [cx, cy] = this.centre(sq);
      el('circle', { cx, cy, r: 0.14, class: 'target' }, svg);
    }
    if (this.arrow && !this.setup) this.drawArrow(this.arrow);
    if (this.coords) this.drawCoords();
    if (had) {
      const f = svg.querySelector(`[data-sq="${had}"]`);
      if (f) f.focus();
    }
  }

  drawSquare(sq, piece, last, targets) {
    const [x, y] = this.place(sq);
    let cls = 'sq dark';
    if (this.sel.includes(sq)) cls = 'sq selected';
    else if (last.length && (sq === last[0] || sq === last[last.length - 1])) cls = 'sq last';
    let label = `${sq} ${this.state.squares[sq - 1].name}, ${names[piece || '']}`;
    if (targets.has(sq)) label += ', legal target';
    const focus = this.readOnly ? {} : { tabindex: 0, role: 'button' };
    el('rect', { x, y, width: 1, height: 1, class: cls, 'data-sq': sq, ...focus, 'aria-label': label }, this.svg);
    el('rect', { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, class: 'focusmark' }, this.svg);
    if (this.numbers) el('text', { x: x + 0.05, y: y + 0.22, class: 'num' }, this.svg).textContent = sq;
    if (piece) this.drawPiece(x + 0.5, y + 0.5, piece, sq);
  }

  drawPiece(cx, cy, piece, sq) {
    const g = el('g', { class: 'piece', 'data-piece': sq }, this.svg);
    el('circle', { cx, cy, r: 0.38, class: piece.toLowerCase() === 'b' ? 'man-b' : 'man-w' }, g);
    if (piece === 'B' || piece === 'W') {
      const pts = [[-0.2, 0.1], [-0.2, -0.1], [-0.1, 0], [0, -0.15], [0.1, 0], [0.2, -0.1], [0.2, 0.1]];
      el('polygon', { points: pts.map(([dx, dy]) => `${cx + dx},${cy + dy}`).join(' '), class: 'crown' }, g);
    }
  }

  drawArrow(path) {
    if (!path || path.length < 2) return;
    const [x1, y1] = this.centre(path[0]);
    const [x2, y2] = this.centre(path[path.length - 1]);
    const len = Math.hypot(x2 - x1, y2 - y1);
    const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const bx = x2 - ux * 0.3, by = y2 - uy * 0.3;
    el('line', { x1, y1, x2: bx, y2: by, class: 'arrow' }, this.svg);
    const pts = [[x2, y2], [bx - uy * 0.18, by + ux * 0.18], [bx + uy * 0.18, by - ux * 0.18]];
    el('polygon', { points: pts.map(p => p.join(',')).join(' '), class: 'arrowhead', 'aria-hidden': 'true' }, this.svg);
  }

  drawCoords() {
    for (let c = 0; c < 8; c++) {
      const x = this.flipped ? 7 - c : c;
      el('text', { x: x + 0.45, y: 8.25, class: 'coord' }, this.svg).textContent = 'abcdefgh'[c];
      const y = this.flipped ? 7 - c : c;
      el('text', { x: -0.25, y: y + 0.58, class: 'coord' }, this.svg).textContent = String(8 - c);
    }
  }

  // square handles a click (or Enter) on a square.
  square(sq) {
    if (this.setup) {
      this.setup[sq] = cycle[(cycle.indexOf(this.setup[sq] || '') + 1) % cycle.length];
      this.draw();
      return;
    }
    const legal = this.legal();
    if (this.sel.length) {
      const cands = this.candidates();
      const next = cands.filter(m => m.path[this.sel.length] === sq);
      if (next.length) {
        this.sel = [...this.sel, sq];
        const done = next.filter(m => m.path.length === this.sel.length);
        if (done.length === 1) { this.play(done[0]); return; }
        this.draw();
        return;
      }
      const ends = cands.filter(m => m.path[m.path.length - 1] === sq);
      if (ends.length === 1) { this.play(ends[0]); return; }
    }
    this.sel = legal.some(m => m.path[0] === sq) && !(this.sel.length === 1 && this.sel[0] === sq) ? [sq] : [];
    this.draw();
  }

  play(m) {
    this.sel = [];
    this.draw();
    this.onMove(m.full);
  }

  // squareAt finds the square under a pointer event, or 0.
  squareAt(e) {
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    let x = Math.floor(p.x), y = Math.floor(p.y);
    if (x < 0 || x > 7 || y < 0 || y > 7) return 0;
    if (this.flipped) { x = 7 - x; y = 7 - y; }
    const s = this.state.squares.find(q => q.col === x && q.row === y);
    return s ? s.sq : 0;
  }

  pointerDown(e) {
    if (!this.state || this.readOnly || e.button > 0) return;
    const sq = this.squareAt(e);
    if (!sq) return;
    this.square(sq);
    const piece = this.svg.querySelector(`[data-piece="${sq}"]`);
    if (this.sel.length === 1 && this.sel[0] === sq && piece) {
      this.drag = { sq, piece, x: e.clientX, y: e.clientY, moved: false };
      this.svg.setPointerCapture(e.pointerId);
    }
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d) return;
    const ctm = this.svg.getScreenCTM();
    const dx = (e.clientX - d.x) / ctm.a, dy = (e.clientY - d.y) / ctm.d;
    if (Math.abs(dx) + Math.abs(dy) > 0.1) d.moved = true;
    d.piece.setAttribute('transform', `translate(${dx},${dy})`);
  }

  pointerUp(e) {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    d.piece.removeAttribute('transform');
    const sq = this.squareAt(e);
    if (d.moved && sq && sq !== d.sq) this.square(sq);
  }

  // setupFEN writes the position being set up as FEN, side to move side.
  setupFEN(side) {
    const list = c => {
      const out = [];
      for (let sq = 1; sq <= 32; sq++) {
        const p = this.setup[sq];
        if (p && p.toLowerCase() === c) out.push((p === p.toUpperCase() ? 'K' : '') + sq);
      }
      return out.join(',');
    };
    return `${side}:W${list('w')}:B${list('b')}`;
  }
}
