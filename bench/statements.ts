import { expectJson, type HttpClient } from './http-client.ts';
import type { SeedSummary } from './seed-ledger.ts';

export const PAGE_LIMIT = 100;

/** One statement request, and what a correct answer holds (so a fast wrong answer fails). */
export interface StatementScenario {
  readonly key: string;
  readonly label: string;
  readonly path: string;
  readonly expectTotal: number;
  readonly expectRows: number;
  /** entryNumber of the first (newest) row; undefined where it is not simple to predict. */
  readonly expectFirstEntry: number | undefined;
}

interface StatementBody {
  data: { entryNumber: number }[];
  pagination: { total: number };
}

/**
 * The pages compared: the small account's first page is the baseline; the big account's first
 * page, a page in the middle of its history, a page in the middle of a date range, and a page
 * in the middle of its credits. The statement design says all cost about the same.
 */
export function statementScenarios(
  bigAccountId: string,
  smallAccountId: string,
  smallEntries: number,
  seed: SeedSummary,
): StatementScenario[] {
  const total = seed.firstSeq - 1 + seed.entries;
  const middlePage = Math.floor(total / PAGE_LIMIT / 2);
  const range = dateRangeInTheMiddle(seed);
  const rangePage = Math.floor(range.count / PAGE_LIMIT / 2);
  const creditPage = Math.floor(seed.credits / PAGE_LIMIT / 2);
  const big = (query: Record<string, string>) => statementPath(bigAccountId, query);
  return [
    {
      key: 'smallPage0',
      label: `small account (${smallEntries} entries), page 0`,
      path: statementPath(smallAccountId, { page: '0' }),
      expectTotal: smallEntries,
      expectRows: Math.min(smallEntries, PAGE_LIMIT),
      expectFirstEntry: smallEntries,
    },
    {
      key: 'bigPage0',
      label: `big account (${total.toLocaleString('en')} entries), page 0`,
      path: big({ page: '0' }),
      expectTotal: total,
      expectRows: PAGE_LIMIT,
      expectFirstEntry: total,
    },
    {
      key: 'bigDeepPage',
      label: `big account, page ${middlePage} (middle)`,
      path: big({ page: String(middlePage) }),
      expectTotal: total,
      expectRows: PAGE_LIMIT,
      expectFirstEntry: total - middlePage * PAGE_LIMIT,
    },
    {
      key: 'bigDateRange',
      label: `big account, ${range.days} days range, page ${rangePage}`,
      path: big({ page: String(rangePage), fromDate: range.from, toDate: range.to }),
      expectTotal: range.count,
      expectRows: PAGE_LIMIT,
      expectFirstEntry: range.lastSeq - rangePage * PAGE_LIMIT,
    },
    {
      key: 'bigCredits',
      label: `big account, type=Credit, page ${creditPage}`,
      path: big({ page: String(creditPage), type: 'Credit' }),
      expectTotal: seed.credits,
      expectRows: PAGE_LIMIT,
      expectFirstEntry: undefined,
    },
  ];
}

function statementPath(accountId: string, query: Record<string, string>): string {
  const search = new URLSearchParams({ limit: String(PAGE_LIMIT), ...query });
  return `/accounts/${accountId}/statement?${search}`;
}

/**
 * A tenth of the seeded history around its middle. Seeded journal i is at exactly
 * firstAt + (i - 1) * step, so bounds on those instants give an exact expected count.
 */
function dateRangeInTheMiddle(seed: SeedSummary) {
  const span = Math.max(1, Math.floor(seed.entries / 10));
  const first = Math.max(1, Math.floor(seed.entries / 2) - Math.floor(span / 2));
  const last = first + span - 1;
  const at = (index: number) =>
    new Date(seed.firstAt.getTime() + (index - 1) * seed.stepSeconds * 1000).toISOString();
  return {
    from: at(first),
    to: at(last),
    count: span,
    lastSeq: seed.firstSeq + last - 1,
    days: Math.round((span * seed.stepSeconds) / 86_400),
  };
}

/**
 * Times each scenario `samples` times, interleaved (one of each, then again) so that a slow
 * moment of the shared machine hits all scenarios alike. Returns milliseconds per scenario.
 */
export async function timeStatements(
  http: HttpClient,
  headers: Readonly<Record<string, string>>,
  scenarios: readonly StatementScenario[],
  samples: number,
): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(scenarios.map((scenario) => [scenario.key, []]));
  for (let sample = 0; sample < samples; sample += 1) {
    for (const scenario of scenarios) {
      const response = await http.get(scenario.path, headers);
      checkStatement(scenario, expectJson<StatementBody>(response, 200, scenario.label));
      times.get(scenario.key)?.push(response.elapsedMs);
    }
  }
  return times;
}

function checkStatement(scenario: StatementScenario, body: StatementBody): void {
  const first = body.data[0]?.entryNumber;
  const wrong =
    body.pagination.total !== scenario.expectTotal ||
    body.data.length !== scenario.expectRows ||
    (scenario.expectFirstEntry !== undefined && first !== scenario.expectFirstEntry);
  if (wrong) {
    throw new Error(
      `${scenario.label}: expected total ${scenario.expectTotal}, ${scenario.expectRows} rows` +
        `, first entry ${scenario.expectFirstEntry}; got total ${body.pagination.total}` +
        `, ${body.data.length} rows, first entry ${first}`,
    );
  }
}
