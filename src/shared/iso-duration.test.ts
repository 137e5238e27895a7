import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DurationError, parseIsoDuration } from './iso-duration.ts';

describe('parseIsoDuration', () => {
  const valid: [string, number][] = [
    ['PT2H', 7_200_000],
    ['PT90S', 90_000],
    ['PT0.5S', 500],
    ['PT1,5S', 1_500],
    ['PT1.5H', 5_400_000],
    ['P1D', 86_400_000],
    ['P1DT30M', 86_400_000 + 1_800_000],
    ['P2W', 14 * 86_400_000],
    ['P1W2DT3H4M5.25S', 9 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000 + 5_250],
    ['P0Y0M1D', 86_400_000],
    ['PT0S', 0],
    ['PT0.0001S', 0],
  ];
  for (const [text, ms] of valid) {
    it(`reads ${text} as ${ms} ms`, () => {
      assert.equal(parseIsoDuration(text), ms);
    });
  }

  const invalid: [string, RegExp][] = [
    ['', /not an ISO 8601 duration/],
    ['P', /not an ISO 8601 duration/],
    ['PT', /not an ISO 8601 duration/],
    ['P1DT', /not an ISO 8601 duration/],
    ['2H', /not an ISO 8601 duration/],
    ['pt2h', /not an ISO 8601 duration/],
    ['-PT2H', /not an ISO 8601 duration/],
    ['PT-2H', /not an ISO 8601 duration/],
    ['PT2H ', /not an ISO 8601 duration/],
    ['PT2M1H', /not an ISO 8601 duration/],
    ['P2H', /not an ISO 8601 duration/],
    ['PT1e3S', /not an ISO 8601 duration/],
    ['PT9999999999999H', /not an ISO 8601 duration/],
    ['PT1.5H30M', /Only the last part/],
    ['P1Y', /years has no fixed length/],
    ['P1M', /months has no fixed length/],
  ];
  for (const [text, message] of invalid) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => parseIsoDuration(text),
        (error: unknown) => error instanceof DurationError && message.test(error.message),
      );
    });
  }
});
