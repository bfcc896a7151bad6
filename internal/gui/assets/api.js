// The page's transport to its back end, the one module that knows which
// it is. Served by the binary (nechecb gui), requests are fetches and
// events a server-sent event stream, and every request carries the token
// the server printed in the page's address. In the browser build (an
// exported site, <html data-transport="worker">), the back end runs in a
// Web Worker and both go as messages. Either way call answers a
// request's JSON and listen gets the events.
const token = new URLSearchParams(location.search).get('token') || '';
const inWorker = document.documentElement.dataset.transport === 'worker';

// url adds the token to a path of the server.
export function url(path) {
  return path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token);
}

// fail shows that the back end cannot be reached, in place of the page's
// controls, so that a failure never leaves a blank or dead board.
function fail(text) {
  const box = document.getElementById('fatal');
  if (box) {
    box.textContent = text;
    box.hidden = false;
  }
  document.body.classList.add('failed');
  document.body.dataset.failed = '1';
}

// answer turns a status and a body into call's result: the JSON, or an
// Error with the back end's message.
function answer(ok, status, text) {
  let data;
  try { data = JSON.parse(text); } catch { data = { error: text.trim() || `status ${status}` }; }
  if (!ok) throw new Error(data.error || `status ${status}`);
  return data;
}

// The worker transport: each request a message {id, method, path, body},
// answered by a message with its id; events come as {event, data}.
let worker = null;
const pending = new Map();
const eventHandlers = {};
let lastID = 0;

function startWorker() {
  if (typeof Worker !== 'function' || typeof WebAssembly !== 'object') {
    fail('This browser cannot run the engine here: it needs Web Workers and WebAssembly. Open the page in a current browser.');
    return;
  }
  worker = new Worker('assets/worker.js');
  const say = document.getElementById('status');
  if (say) say.textContent = 'Loading the engine…';
  const dead = text => {
    fail(text);
    for (const p of pending.values()) p.reject(new Error(text));
    pending.clear();
    worker = null;
  };
  worker.onmessage = e => {
    const m = e.data;
    if (m.fatal) { dead(m.fatal); return; }
    if (m.event) { const fn = eventHandlers[m.event]; if (fn) fn(JSON.parse(m.data)); return; }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    p.resolve(m);
  };
  worker.onerror = e => { e.preventDefault(); dead('The engine\'s worker failed: ' + (e.message || 'unknown error') + '. Reload the page to start it again.'); };
}

// post sends a message to the worker and resolves with its answer.
function post(msg) {
  if (!worker) return Promise.reject(new Error('The engine is not running; reload the page.'));
  return new Promise((resolve, reject) => {
    msg.id = ++lastID;
    pending.set(msg.id, { resolve, reject });
    worker.postMessage(msg);
  });
}

// send sends a request; it resolves with {ok, status, text, filename}.
async function send(path, body, raw) {
  const method = body === undefined ? 'GET' : 'POST';
  const text = body === undefined ? '' : raw ? body : JSON.stringify(body);
  if (inWorker) {
    const m = await post({ method, path, body: text });
    return { ok: m.status === 200, status: m.status, text: m.body, filename: m.filename };
  }
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.body = text;
    opts.headers['Content-Type'] = raw ? 'text/plain' : 'application/json';
  }
  const res = await fetch(url(path), opts);
  return { ok: res.ok, status: res.status, text: await res.text() };
}

// call sends a request and returns the answer's JSON; an error answer
// throws an Error with the back end's message.
export async function call(path, body, raw) {
  const r = await send(path, body, raw);
  return answer(r.ok, r.status, r.text);
}

// listen opens the back end's event stream and calls handlers[type] with
// each event's data. It returns the stream: an EventSource, or from the
// worker, which is always open, an object to close.
export function listen(handlers) {
  if (inWorker) {
    Object.assign(eventHandlers, handlers);
    return { close() { for (const type of Object.keys(handlers)) delete eventHandlers[type]; } };
  }
  const es = new EventSource(url('/events'));
  for (const [type, fn] of Object.entries(handlers)) {
    es.addEventListener(type, ev => fn(JSON.parse(ev.data)));
  }
  return es;
}

// saveLink makes the link a download of the file the back end answers at
// path: a plain link to the server, or, from the worker, the text saved
// through a blob when the link is clicked.
export function saveLink(a, path, filename) {
  if (!inWorker) {
    a.href = url(path);
    return;
  }
  a.href = '#';
  a.addEventListener('click', async e => {
    e.preventDefault();
    try {
      const r = await send(path);
      if (!r.ok) answer(false, r.status, r.text);
      const blob = URL.createObjectURL(new Blob([r.text], { type: 'application/x-pdn' }));
      const tmp = document.createElement('a');
      tmp.href = blob;
      tmp.download = r.filename || filename;
      document.body.appendChild(tmp);
      tmp.click();
      tmp.remove();
      setTimeout(() => URL.revokeObjectURL(blob), 10000);
    } catch (err) {
      const say = document.getElementById('status');
      if (say) say.textContent = err.message;
    }
  });
}

// bench runs the engine's bench positions in the worker (the browser
// build only), for the measurements of docs/gui.md.
export function bench(depth, evalSpec) {
  return post({ bench: { depth, eval: evalSpec } });
}

// keepOffline registers the exported site's service worker (sw.js, which
// the export writes beside the page), which keeps the site's files so
// that it loads with no network. A browser without service workers, or a
// page not in a secure context (plain http to another host than
// localhost), plays all the same, online. window.nechecbOffline says how
// it went: 'registered', 'unsupported', or the registration's error.
// When a new export's service worker takes a page that an older one
// served, the page says a reload brings the new build.
function keepOffline() {
  if (!('serviceWorker' in navigator)) {
    window.nechecbOffline = 'unsupported';
    return;
  }
  const older = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!older || document.getElementById('update-note')) return;
    const note = document.createElement('p');
    note.id = 'update-note';
    note.setAttribute('role', 'status');
    note.textContent = 'A new build of this site is installed. ';
    const reload = document.createElement('button');
    reload.textContent = 'Reload';
    reload.addEventListener('click', () => location.reload());
    note.append(reload);
    document.querySelector('header').append(note);
  });
  navigator.serviceWorker.register('sw.js').then(
    () => { window.nechecbOffline = 'registered'; },
    err => { window.nechecbOffline = err.message; });
}

if (inWorker) {
  startWorker();
  keepOffline();
  window.nechecbBench = bench;
}
