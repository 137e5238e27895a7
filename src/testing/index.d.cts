// The CommonJS entry's types: the same function and types as the ES module's.
import type * as testing from './index.js' with { 'resolution-mode': 'import' };

export declare const startSandbox: typeof testing.startSandbox;
export type Sandbox = testing.Sandbox;
export type SandboxClient = testing.SandboxClient;
export type SandboxFault = testing.SandboxFault;
export type SandboxOptions = testing.SandboxOptions;
export type WebhookRecord = testing.WebhookRecord;
export type MessageRecord = testing.MessageRecord;
