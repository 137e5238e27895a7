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

export interface AlertTemplates {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly sms: string;
}

const FILES = { text: 'alert.txt', html: 'alert.html', sms: 'alert.sms.txt' } as const;
const SUBJECT = '{{bankName}} {{direction}} alert: {{amount}}';
const TAG = /\{\{([#/]?)([A-Za-z]+)\}\}/g;

/**
 * The module's templates (templates/), each replaced by the operator's file of the same name in
 * `overrideDir` when there is one. Every template is checked now: an unknown name or an
 * unclosed section stops the start, rather than a customer getting a broken alert.
 */
export function loadAlertTemplates(overrideDir: string | undefined): AlertTemplates {
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
    subject: SUBJECT,
    text: read(FILES.text),
    html: read(FILES.html),
    sms: read(FILES.sms).trim(),
  };
  for (const [name, template] of Object.entries(templates)) {
    checkTemplate(name, template);
  }
  return templates;
}

function checkTemplate(name: string, template: string): void {
  const open: string[] = [];
  for (const [, mark, field = ''] of template.matchAll(TAG)) {
    if (!(TEMPLATE_FIELDS as readonly string[]).includes(field)) {
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
  values: TemplateValues,
  options: { readonly escape: boolean },
): string {
  const value = (field: string) => {
    const raw = values[field as keyof TemplateValues] ?? '';
    return options.escape ? escapeHtml(raw) : raw;
  };
  const sections = template.replace(
    /\{\{#([A-Za-z]+)\}\}([\s\S]*?)\{\{\/\1\}\}/g,
    (_all, field: string, inner: string) => (value(field) === '' ? '' : inner),
  );
  // One pass over the template's own tags: a value that looks like a tag stays text.
  return sections.replace(TAG, (_all, _mark, field: string) => value(field));
}
