// The part of undici the clients use (Agent, the proxy agent and request),
// without fetch, WebSocket, caches and mocks, for the extension's on-demand undici.js.
// Mirrors undici's own top-level request(): parse the URL, hand it to the dispatcher.
'use strict';
const Dispatcher = require('undici/lib/dispatcher/dispatcher');
const Agent = require('undici/lib/dispatcher/agent');
const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent');
const api = require('undici/lib/api');

Object.assign(Dispatcher.prototype, api);

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
