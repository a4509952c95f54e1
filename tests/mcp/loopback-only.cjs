// SPDX-License-Identifier: GPL-3.0-or-later
//
// Preloaded (node --require) into the npm servers the tests start, so that
// every server socket they open listens on 127.0.0.1 only, whatever host
// the server itself asks for.
'use strict';

const net = require('net');
const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function (...args) {
  const first = args[0];

  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof args[1] === 'string')
      args[1] = '127.0.0.1';
    else
      args.splice(1, 0, '127.0.0.1');
  } else if (first !== null && typeof first === 'object' && !(first instanceof net.Server)) {
    args[0] = Object.assign({}, first, { host: '127.0.0.1' });
  } else if (first === undefined || typeof first === 'function') {
    args.unshift(0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
