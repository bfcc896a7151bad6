// The match watch page: a small board for each game under way, updated by
// the server's events, and the match's table with its SPRT line.
import { call, listen } from './api.js';
import { Board } from './board.js';

const $ = id => document.getElementById(id);
let squares = [];
const cards = new Map(); // game index -> { li, board, title, info }

// card returns the card of game g, made when first seen.
function card(g) {
  let c = cards.get(g.index);
  if (c) return c;
  const li = document.createElement('li');
  li.className = 'watch-game';
  li.dataset.game = g.index;
  const title = document.createElement('h3');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '-0.3 -0.3 8.6 8.6');
  svg.setAttribute('class', 'board');
  svg.setAttribute('role', 'img');
  const info = document.createElement('p');
  info.setAttribute('aria-live', 'off');
  li.append(title, svg, info);
  c = { li, svg, board: new Board(svg, null), title, info };
  c.board.numbers = false;
  cards.set(g.index, c);
  const list = $('games');
  const after = [...list.children].find(x => Number(x.dataset.game) > g.index);
  list.insertBefore(li, after || null);
  return c;
}

// showGame draws game g on its card.
function showGame(g) {
  if (!squares.length) return; // no snapshot, so no board to draw on
  const c = card(g);
  const moves = Math.ceil(g.ply / 2);
  c.title.textContent = `Game ${g.index}: ${g.black} (black) – ${g.white} (white)`;
  let text = `${g.opening}; move ${moves} (${g.ply} plies)`;
  if (g.last) text += `, last ${g.last.text}`;
  text += g.result ? `; ended ${g.result} (${g.reason})` : `; ${g.side} to move`;
  c.info.textContent = text;
  c.svg.setAttribute('aria-label', `Game ${g.index}, ${g.black} against ${g.white}, ${text}`);
  c.li.classList.toggle('over', !!g.result);
  c.board.show({ ...g, squares, version: g.ply, legal: [] });
}

function gone(index) {
  const c = cards.get(index);
  if (c) { c.li.remove(); cards.delete(index); }
}

function standings(s) {
  $('table').textContent = (s.table || []).join('\n');
  $('sprt').textContent = s.sprt || '';
  $('sprt').hidden = !s.sprt;
}

async function start() {
  // The stream opens before the snapshot comes, and the snapshot may have
  // been taken before an event that arrives first: events wait for it.
  let early = [];
  const later = fn => x => (early ? early.push(() => fn(x)) : fn(x));
  const es = listen({
    game: later(showGame),
    gone: later(gone),
    standings: later(standings),
    over: later(() => { $('status').textContent = 'The match is over.'; es.close(); }),
  });
  es.onopen = () => { if (!$('status').textContent.startsWith('The match')) $('status').textContent = 'Live'; };
  es.onerror = () => { if (!$('status').textContent.startsWith('The match')) $('status').textContent = 'The connection to nechecb match is lost; the page shows what it last got.'; };
  try {
    const v = await call('/api/watch');
    squares = v.squares;
    for (const g of v.games) showGame(g);
    standings(v);
    $('note').textContent = v.note || '';
    $('note').hidden = !v.note;
    if (v.over) $('status').textContent = 'The match is over.';
  } catch (err) {
    $('status').textContent = err.message;
  }
  const waiting = early;
  early = null;
  for (const f of waiting) f();
}

start();
