/**
 * A stand-in for Google's script loader (`https://apis.google.com/js/api.js`), for machines
 * without internet access.
 *
 * The Firebase SDK's popup sign-in talks to a helper iframe (the Auth Emulator serves it at
 * `/emulator/auth/iframe`) through `gapi.iframes`, and both the page and that iframe load
 * `api.js` from Google to get it. Offline, the script never arrives, the SDK fails with
 * `auth/internal-error` before it opens the popup, and the emulator's iframe cannot report the
 * popup's result. This stub implements the small part of `gapi.iframes` both sides use (open an
 * iframe, ping it, register handlers, send a message and collect the replies) over
 * `postMessage`. Everything else in the flow is real: the SDK, the popup it opens, the
 * emulator's account picker, the auth event relay and the sign-in at the emulator.
 */
import type { BrowserContext } from 'playwright-core';

const GAPI_STUB = `(() => {
  const TAG = '__duetGapiStub';
  const handlers = {};
  const waiting = {};
  const replies = {};
  let nextId = 1;

  const answer = (source, id, name, data) => {
    const result = handlers[name](data);
    source.postMessage({ [TAG]: 'reply', id, responses: result === undefined ? [] : [result] }, '*');
  };

  window.addEventListener('message', (e) => {
    const m = e.data;
    if (!m || typeof m !== 'object' || !m[TAG]) return;
    if (m[TAG] === 'send') {
      if (handlers[m.name]) answer(e.source, m.id, m.name, m.data);
      else (waiting[m.name] ??= []).push([e.source, m.id, m.name, m.data]);
    } else if (m[TAG] === 'reply') {
      const callback = replies[m.id];
      delete replies[m.id];
      // The SDK's web-storage callback throws after it has its answer; gapi swallows that too.
      try { callback?.(m.responses); } catch {}
    }
  });

  const channel = (target) => ({
    register(name, handler) {
      handlers[name] = handler;
      for (const queued of (waiting[name] ?? []).splice(0)) answer(...queued);
    },
    send(name, data, callback) {
      const id = nextId++;
      if (callback) replies[id] = callback;
      target().postMessage({ [TAG]: 'send', id, name, data }, '*');
    },
  });

  const context = {
    open(options, onOpen) {
      const frame = document.createElement('iframe');
      for (const [key, value] of Object.entries(options.attributes ?? {})) {
        if (key === 'style') Object.assign(frame.style, value);
        else frame.setAttribute(key, String(value));
      }
      const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
      frame.src = options.url;
      (options.where ?? document.body).appendChild(frame);
      const iframe = {
        ...channel(() => frame.contentWindow),
        restyle: () => Promise.resolve(),
        ping: () => loaded.then(() => undefined),
      };
      return onOpen(iframe);
    },
    getParentIframe: () => channel(() => window.parent),
  };

  window.gapi = {
    load(_module, options) {
      const callback = typeof options === 'function' ? options : options?.callback;
      setTimeout(() => callback?.(), 0);
    },
    iframes: { Iframe: function Iframe() {}, CROSS_ORIGIN_IFRAMES_FILTER: () => true, getContext: () => context },
  };

  const onload = document.currentScript ? new URL(document.currentScript.src).searchParams.get('onload') : null;
  if (onload && typeof window[onload] === 'function') window[onload]();
  else if (typeof window.gapi_onload === 'function') window.gapi_onload();
})();
`;

export const GAPI_SCRIPT_URL = /^https:\/\/apis\.google\.com\/js\/api\.js/;

/** Serves the stub for `api.js` to every page and frame of the context. */
export async function serveGapiStub(context: BrowserContext): Promise<void> {
  await context.route(GAPI_SCRIPT_URL, (route) => route.fulfill({ contentType: 'text/javascript', body: GAPI_STUB }));
}
