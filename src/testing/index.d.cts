// The CommonJS entry's types: the same functions as the ES module's.
import type * as testing from './index.js';

export declare const startSandbox: typeof testing.startSandbox;
