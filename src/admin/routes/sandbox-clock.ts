import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type ClockState, MAX_ADVANCE_MS, type SandboxClock } from '../../shared/clock.ts';
import { DurationError, parseIsoDuration } from '../../shared/iso-duration.ts';
import { adminContract } from '../contract/index.ts';

export interface SandboxClockRouteOptions {
  /** The bank's test clock in the sandbox; undefined in production (systemClock). */
  readonly sandboxClock: SandboxClock | undefined;
}

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };
const readClock = adminContract['GET /admin/sandbox/clock'];
const moveClock = adminContract['POST /admin/sandbox/clock'];

/**
 * GET and POST /admin/sandbox/clock: read the bank's test clock, move it forward (an ISO 8601
 * duration, never backwards), freeze or unfreeze it. Everything time-bound follows it
 * (docs/sandbox-testing-controls.md); an advance wakes the background workers and answers once
 * the rounds it caused are done (at most a few seconds).
 */
export const sandboxClockRoutes: FastifyPluginAsyncTypebox<SandboxClockRouteOptions> = async (
  app,
  { sandboxClock },
) => {
  const clockOrRefuse = (): SandboxClock => {
    if (sandboxClock === undefined) {
      throw new AppError('SANDBOX_ONLY');
    }
    return sandboxClock;
  };

  app.get(
    '/admin/sandbox/clock',
    {
      schema: {
        tags: ['Admin'],
        summary: "Sandbox: the bank's test clock",
        response: { 200: readClock.answer, ...errors },
      },
    },
    async () => ok('Clock fetched successfully.', clockView(clockOrRefuse().state())),
  );

  app.post(
    '/admin/sandbox/clock',
    {
      schema: {
        tags: ['Admin'],
        summary: "Sandbox: move the bank's test clock forward, freeze or unfreeze it",
        body: moveClock.body,
        response: { 200: moveClock.answer, ...errors },
      },
    },
    async (request) => {
      const clock = clockOrRefuse();
      const { advance, freeze } = request.body;
      if (advance === undefined && freeze === undefined) {
        throw new AppError('VALIDATION_ERROR', 'Give advance (an ISO 8601 duration) or freeze.');
      }
      const advanceMs = advance === undefined ? undefined : advanceMsOf(advance);
      let state = freeze === undefined ? clock.state() : clock.freeze(freeze);
      if (advanceMs !== undefined) {
        state = await clock.advance(advanceMs);
      }
      return ok('Clock updated successfully.', clockView(state));
    },
  );
};

function clockView(state: ClockState) {
  return {
    now: state.now.toISOString(),
    offsetSeconds: Math.round(state.offsetMs) / 1000,
    frozen: state.frozen,
  };
}

/** The advance in milliseconds: an ISO 8601 duration, more than zero and at most P400D. */
function advanceMsOf(text: string): number {
  let ms: number;
  try {
    ms = parseIsoDuration(text);
  } catch (error) {
    if (error instanceof DurationError) {
      throw invalidAdvance(error.message);
    }
    throw error;
  }
  if (ms <= 0) {
    throw invalidAdvance('The clock only moves forward: give a duration of at least 1 ms.');
  }
  if (ms > MAX_ADVANCE_MS) {
    throw invalidAdvance(`One advance moves the clock at most P${MAX_ADVANCE_MS / 86_400_000}D.`);
  }
  return ms;
}

function invalidAdvance(message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, { details: [{ field: 'advance', message }] });
}
