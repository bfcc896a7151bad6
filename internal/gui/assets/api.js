// The server's API: every request carries the page's token, which the
// server printed in the page's address.
const token = new URLSearchParams(location.search).get('token') || '';

// url adds the token to a path of the server.
export function url(path) {
  return path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token);
}

// call sends a request and returns the answer's JSON; an error answer
// throws an Error with the server's message.
export async function call(path, body, raw) {
  const opts = { method: body === undefined ? 'GET' : 'POST', headers: {} };
  if (body !== undefined) {
    opts.body = raw ? body : JSON.stringify(body);
    opts.headers['Content-Type'] = raw ? 'text/plain' : 'application/json';
  }
  const res = await fetch(url(path), opts);
  const text = await res.text();
  let data;
  try { data = JSON.parse(text); } catch { data = { error: text.trim() || res.statusText }; }
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// listen opens the server's event stream and calls handlers[type] with
// each event's data.
export function listen(handlers) {
  const es = new EventSource(url('/events'));
  for (const [type, fn] of Object.entries(handlers)) {
    es.addEventListener(type, ev => fn(JSON.parse(ev.data)));
  }
  return es;
}
