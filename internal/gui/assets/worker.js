// The browser build's Web Worker: it runs nechecb's page back end, Go
// compiled to WebAssembly (../nechecb.wasm, started by Go's own
// ../wasm_exec.js), and passes the page's messages to it. Messages that
// come before the engine has started wait in a queue. A browser without
// WebAssembly, a file that does not load and an engine that stops each
// send {fatal} to the page, which says so.
'use strict';

const queue = [];
let handle = null;

self.onmessage = e => { if (handle) handle(e.data); else queue.push(e.data); };

function fatal(text) { postMessage({ fatal: text }); }

// nechecbStarted is called by the Go program once it listens.
self.nechecbStarted = fn => {
  handle = fn;
  postMessage({ ready: true });
  for (const m of queue.splice(0)) handle(m);
};

async function start() {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    fatal('This browser cannot run WebAssembly, which the engine needs: open the page in a current browser.');
    return;
  }
  try {
    importScripts('../wasm_exec.js');
  } catch (err) {
    fatal('The engine\'s loader (wasm_exec.js) did not load: ' + err.message);
    return;
  }
  const go = new Go();
  go.exit = code => fatal(`The engine stopped (exit status ${code}); reload the page to start it again.`);
  let result;
  try {
    const res = await fetch('../nechecb.wasm');
    if (!res.ok) throw new Error(`nechecb.wasm: ${res.status} ${res.statusText}`);
    // Compiling as the file streams in needs the application/wasm type;
    // a server that sends another gets the slower way.
    if ((res.headers.get('Content-Type') || '').startsWith('application/wasm')) {
      result = await WebAssembly.instantiateStreaming(res, go.importObject);
    } else {
      result = await WebAssembly.instantiate(await res.arrayBuffer(), go.importObject);
    }
  } catch (err) {
    fatal('The engine (nechecb.wasm) did not load: ' + err.message);
    return;
  }
  try {
    await go.run(result.instance);
  } catch (err) {
    fatal('The engine failed: ' + err.message + '; reload the page to start it again.');
  }
}

start();
