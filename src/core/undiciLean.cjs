// The part of undici the clients use (Agent, the proxy agent and request),
// without fetch, WebSocket, caches and mocks, for the extension's on-demand undici.js.
// Mirrors undici's own top-level request(): parse the URL, hand it to the dispatcher.
'use strict';
const Dispatcher = require('undici/lib/dispatcher/dispatcher');
const Agent = require('undici/lib/dispatcher/agent');
const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent');

// Of the dispatcher's calls (undici/lib/api), request() and connect(), which the proxy agent opens its CONNECT
// tunnel with; nothing calls stream(), pipeline() or upgrade() (7.8 KB of dist/undici.js).
Object.assign(Dispatcher.prototype, {
  request: require('undici/lib/api/api-request'),
  connect: require('undici/lib/api/api-connect'),
});

function request(url, opts) {
  const target = new URL(url);
  const { dispatcher, ...rest } = opts;
  return dispatcher.request({
    ...rest,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: rest.method || 'GET',
  });
}

module.exports = { Agent, EnvHttpProxyAgent, request };
