import { type CliCommand, call, required } from './admin-call.ts';

/** The sandbox's test controls (docs/sandbox-testing-controls.md). */
export const SANDBOX_COMMANDS: Record<string, CliCommand> = {
  'sandbox:clock': {
    usage:
      'sandbox:clock [--advance PT2H] [--freeze | --unfreeze]   read the bank’s test clock, move ' +
      'it forward (ISO 8601 duration), freeze or unfreeze it',
    async run(context) {
      const { advance, freeze, unfreeze } = context.options;
      if (freeze === true && unfreeze === true) {
        throw new Error('--freeze and --unfreeze cannot go together');
      }
      const body = {
        ...(typeof advance === 'string' ? { advance } : {}),
        ...(freeze === true ? { freeze: true } : unfreeze === true ? { freeze: false } : {}),
      };
      return Object.keys(body).length === 0
        ? call(context, 'GET', '/admin/sandbox/clock')
        : call(context, 'POST', '/admin/sandbox/clock', body);
    },
  },
  'sandbox:return': {
    usage:
      'sandbox:return --session SESSION_ID [--reason TEXT]   the beneficiary bank sends back a ' +
      'Completed outbound NIP transfer (docs/sandbox-nip.md, "Returns")',
    async run(context) {
      const { reason } = context.options;
      return call(context, 'POST', '/admin/sandbox/nip/returns', {
        sessionId: required(context, 'session'),
        ...(typeof reason === 'string' ? { reason } : {}),
      });
    },
  },
  'sandbox:recall': {
    usage:
      'sandbox:recall --session SESSION_ID [--reason TEXT]   the sending bank recalls a ' +
      'Completed credit it sent (docs/sandbox-nip.md, "Recalls")',
    async run(context) {
      const { reason } = context.options;
      return call(context, 'POST', '/admin/sandbox/nip/recalls', {
        sessionId: required(context, 'session'),
        ...(typeof reason === 'string' ? { reason } : {}),
      });
    },
  },
};
