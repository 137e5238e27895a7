// CommonJS callers: the entry is an ES module, loaded on first use.
'use strict';
exports.startSandbox = async (options) => (await import('./index.js')).startSandbox(options);
