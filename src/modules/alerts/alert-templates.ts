import { readFileSync } from 'node:fs';
import path from 'node:path';
import { codeFile } from '../../shared/code-files.ts';
import { escapeHtml } from '../../shared/html-escape.ts';

/**
 * The values an alert template may name (docs/alerts.md, "Templates"): `{{name}}` writes one,
 * `{{#name}}…{{/name}}` writes its content only when the value is not empty. Nothing else: no
 * code runs in a template. In the HTML template every value is escaped (shared/html-escape.ts);
 * the text and SMS templates are plain text.
 */
export const TEMPLATE_FIELDS = [
  'bankName',
  'logoUrl',
  'headline',
  'direction',
  'amount',
  'narration',
  'balance',
  'date',
  'accountNumber',
  'accountName',
  'lines',
] as const;

export type TemplateValues = Readonly<Record<(typeof TEMPLATE_FIELDS)[number], string>>;

/**
 * The values a monthly statement's templates may name (docs/statements.md, "Monthly
 * statements"), under the same rules as an alert's.
 */
export const STATEMENT_TEMPLATE_FIELDS = [
  'bankName',
  'logoUrl',
  'accountNumber',
  'accountName',
  'period',
  'fromDate',
  'toDate',
  'openingBalance',
  'closingBalance',
] as const;

export type StatementTemplateValues = Readonly<
  Record<(typeof STATEMENT_TEMPLATE_FIELDS)[number], string>
>;

export interface AlertTemplates {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly sms: string;
}

/** One kind of message's templates: its files, its subject and the names they may use. */
interface TemplateSet {
  readonly files: { readonly text: string; readonly html: string; readonly sms: string };
  readonly subject: string;
  readonly fields: readonly string[];
}

const ALERT_SET: TemplateSet = {
  files: { text: 'alert.txt', html: 'alert.html', sms: 'alert.sms.txt' },
  subject: '{{bankName}} {{direction}} alert: {{amount}}',
  fields: TEMPLATE_FIELDS,
};
const STATEMENT_SET: TemplateSet = {
  files: { text: 'statement.txt', html: 'statement.html', sms: 'statement.sms.txt' },
  subject: '{{bankName}} statement of account: {{period}}',
  fields: STATEMENT_TEMPLATE_FIELDS,
};
const TAG = /\{\{([#/]?)([A-Za-z]+)\}\}/g;

/**
 * The module's alert templates (templates/), each replaced by the operator's file of the same
 * name in `overrideDir` when there is one. Every template is checked now: an unknown name or an
 * unclosed section stops the start, rather than a customer getting a broken alert.
 */
export function loadAlertTemplates(overrideDir: string | undefined): AlertTemplates {
  return loadTemplateSet(overrideDir, ALERT_SET);
}

/** The monthly statement's templates, found and checked as the alerts' are. */
export function loadStatementTemplates(overrideDir: string | undefined): AlertTemplates {
  return loadTemplateSet(overrideDir, STATEMENT_SET);
}

function loadTemplateSet(overrideDir: string | undefined, set: TemplateSet): AlertTemplates {
  const read = (name: string) => {
    const override = overrideDir === undefined ? undefined : path.join(overrideDir, name);
    try {
      if (override !== undefined) {
        return readFileSync(override, 'utf8');
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw error;
      }
    }
    return readFileSync(codeFile(`modules/alerts/templates/${name}`), 'utf8');
  };
  const templates = {
    subject: set.subject,
    text: read(set.files.text),
    html: read(set.files.html),
    sms: read(set.files.sms).trim(),
  };
  for (const [name, template] of Object.entries(templates)) {
    checkTemplate(name === 'subject' ? name : set.files[name as 'text'], template, set.fields);
  }
  return templates;
}

function checkTemplate(name: string, template: string, fields: readonly string[]): void {
  const open: string[] = [];
  for (const [, mark, field = ''] of template.matchAll(TAG)) {
    if (!fields.includes(field)) {
      throw new Error(`alert template ${name}: unknown field {{${field}}}`);
    }
    if (mark === '#') {
      open.push(field);
    } else if (mark === '/' && open.pop() !== field) {
      throw new Error(`alert template ${name}: {{/${field}}} closes no open section`);
    }
  }
  if (open.length > 0) {
    throw new Error(`alert template ${name}: {{#${open[0]}}} is never closed`);
  }
}

/** Fills a template; `escape` for HTML. Sections first, then the values. */
export function fillTemplate(
  template: string,
  values: TemplateValues | StatementTemplateValues,
  options: { readonly escape: boolean },
): string {
  const value = (field: string) => {
    const raw = (values as Readonly<Record<string, string>>)[field] ?? '';
    return options.escape ? escapeHtml(raw) : raw;
  };
  const sections = template.replace(
    /\{\{#([A-Za-z]+)\}\}([\s\S]*?)\{\{\/\1\}\}/g,
    (_all, field: string, inner: string) => (value(field) === '' ? '' : inner),
  );
  // One pass over the template's own tags: a value that looks like a tag stays text.
  return sections.replace(TAG, (_all, _mark, field: string) => value(field));
}
