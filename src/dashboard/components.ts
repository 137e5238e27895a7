import type { Static } from 'typebox';
import type { PaginationSchema } from '../http/common-schemas.ts';
import { type Html, html } from './html.ts';

/** Naira as the admin API answers it (a number), shown with the sign and two decimals. */
export function naira(amount: unknown): string {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    return '';
  }
  return `₦${amount.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** An ISO time as UTC to the second. */
export function when(iso: unknown): string {
  if (typeof iso !== 'string' || iso === '') {
    return '';
  }
  const time = new Date(iso);
  return Number.isNaN(time.getTime())
    ? iso
    : `${time.toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

export function text(value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const GOOD = /^(active|completed|successful|delivered|paid|posted|verified|settled|ok)$/i;
const BAD = /^(failed|revoked|disabled|frozen|expired|declined|reversed|cancelled|inactive)$/i;

export function badge(status: unknown): Html {
  const label = text(status);
  const tone = GOOD.test(label) ? 'good' : BAD.test(label) ? 'bad' : 'neutral';
  return html`<span class="badge badge-${tone}">${label}</span>`;
}

export interface Column<Row> {
  readonly label: string;
  readonly cell: (row: Row) => Html | string;
  /** Right-aligned (amounts). */
  readonly numeric?: boolean;
}

export function table<Row>(options: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  empty: string;
}): Html {
  if (options.rows.length === 0) {
    return html`<p class="empty">${options.empty}</p>`;
  }
  const cellClass = (column: Column<Row>) => (column.numeric === true ? html` class="num"` : '');
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${options.caption}">
<table>
<caption>${options.caption}</caption>
<thead><tr>${options.columns.map((column) => html`<th scope="col"${cellClass(column)}>${column.label}</th>`)}</tr></thead>
<tbody>${options.rows.map(
    (row) =>
      html`<tr>${options.columns.map((column) => html`<td${cellClass(column)} data-label="${column.label}">${column.cell(row)}</td>`)}</tr>`,
  )}</tbody>
</table></div>`;
}

/** Where a page of a list is, as the admin API's paged answers say. */
export type Pagination = Static<typeof PaginationSchema>;

/** Previous / next links that keep the page's other query parameters. */
export function pager(path: string, query: Record<string, string>, pagination?: Pagination): Html {
  if (pagination === undefined || pagination.pages <= 1) {
    return html``;
  }
  const page = Number(pagination.page);
  const link = (to: number) => `${path}?${new URLSearchParams({ ...query, page: String(to) })}`;
  return html`<nav class="pager" aria-label="Pages">
${page > 0 ? html`<a href="${link(page - 1)}" rel="prev">← Previous</a>` : ''}
<span>Page ${page + 1} of ${pagination.pages} (${pagination.total} in all)</span>
${page + 1 < pagination.pages ? html`<a href="${link(page + 1)}" rel="next">Next →</a>` : ''}
</nav>`;
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** A one-button form that posts an action (every change is a POST with the CSRF token). */
export function actionButton(options: {
  action: string;
  label: string;
  csrf: string;
  tone?: 'danger' | 'primary';
  confirm?: string;
  fields?: Record<string, string>;
}): Html {
  return html`<form method="post" action="${options.action}" class="inline"${options.confirm === undefined ? '' : html` data-confirm="${options.confirm}"`}>
${csrfField(options.csrf)}
${Object.entries(options.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit" class="button ${options.tone ?? ''}">${options.label}</button>
</form>`;
}

/** A labelled input. */
export function field(options: {
  label: string;
  name: string;
  type?: string;
  value?: string;
  required?: boolean;
  pattern?: string;
  placeholder?: string;
  hint?: string;
  inputmode?: string;
}): Html {
  const id = `field-${options.name}`;
  return html`<div class="field">
<label for="${id}">${options.label}</label>
<input id="${id}" name="${options.name}" type="${options.type ?? 'text'}" value="${options.value ?? ''}"${options.required === true ? html` required` : ''}${options.pattern === undefined ? '' : html` pattern="${options.pattern}"`}${options.placeholder === undefined ? '' : html` placeholder="${options.placeholder}"`}${options.inputmode === undefined ? '' : html` inputmode="${options.inputmode}"`}${options.hint === undefined ? '' : html` aria-describedby="${id}-hint"`}>
${options.hint === undefined ? '' : html`<small id="${id}-hint">${options.hint}</small>`}
</div>`;
}

export function select(options: {
  label: string;
  name: string;
  choices: readonly (readonly [value: string, label: string])[];
  value?: string;
}): Html {
  const id = `field-${options.name}`;
  return html`<div class="field">
<label for="${id}">${options.label}</label>
<select id="${id}" name="${options.name}">${options.choices.map(
    ([value, label]) =>
      html`<option value="${value}"${value === (options.value ?? '') ? html` selected` : ''}>${label}</option>`,
  )}</select>
</div>`;
}

/** Key/value pairs of one record. */
export function details(pairs: readonly (readonly [label: string, value: Html | string])[]): Html {
  return html`<dl class="details">${pairs.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;
}

/** Words for a camelCase field name: `balanceAfter` → `Balance after`. */
const LABELS: Readonly<Record<string, string>> = {
  _id: 'Id',
  vat: 'VAT',
  isGlAccount: 'GL account',
  glAccounts: 'GL accounts',
  sessionId: 'Session id',
  nipCode: 'NIP code',
};

export function labelOf(name: string): string {
  const known = LABELS[name];
  if (known !== undefined) {
    return known;
  }
  const words = name
    .replace(/^_/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const AMOUNT_FIELD =
  /^(amount|balance|balanceAfter|fees?|vat|stampDuty|commission|settledAmount|amountPaid)$/i;
const TIME_FIELD = /At$|^date$|Date$/;

/** One value of a record as the admin API gave it: times, amounts and statuses made readable. */
export function cellOf(name: string, value: unknown): Html | string {
  if (name === 'status') {
    return badge(value);
  }
  if (name === 'accounts' && Array.isArray(value)) {
    // Accounts opened with an identity: their numbers, and as whom.
    return value
      .map((account: { accountNumber?: unknown; as?: unknown }) =>
        [text(account.accountNumber), account.as === undefined ? '' : `(${text(account.as)})`]
          .join(' ')
          .trim(),
      )
      .join(', ');
  }
  if (typeof value === 'number' && AMOUNT_FIELD.test(name)) {
    return naira(value);
  }
  if (typeof value === 'string' && TIME_FIELD.test(name)) {
    return when(value);
  }
  return text(value);
}

/** Records of any shape: a column per field (the union, in first-seen order). */
export function recordsTable<Row extends Readonly<Record<string, unknown>>>(
  caption: string,
  rows: readonly Row[],
  empty: string,
  only?: readonly (keyof Row & string)[],
): Html {
  const names: readonly string[] = only ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return table({
    caption,
    columns: names.map((name) => ({
      label: labelOf(name),
      numeric: AMOUNT_FIELD.test(name),
      cell: (row: Row) => cellOf(name, row[name]),
    })),
    rows,
    empty,
  });
}

/** One record's fields as a definition list. */
export function recordDetails<Row extends Readonly<Record<string, unknown>>>(
  record: Row,
  only?: readonly (keyof Row & string)[],
): Html {
  const names: readonly string[] = only ?? Object.keys(record);
  return details(
    names
      .filter((name) => record[name] !== undefined)
      .map((name) => [labelOf(name), cellOf(name, record[name])] as const),
  );
}
