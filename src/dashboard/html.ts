import { escapeHtml } from '../shared/html-escape.ts';

export { escapeHtml };

/**
 * HTML built from tagged templates: every interpolated value is escaped unless it is already
 * `Html` (made by this tag). Arrays are joined. Nothing from a request, the
 * database or an admin API answer can reach a page unescaped.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolated = Html | string | number | bigint | boolean | null | undefined | Interpolated[];

function render(value: Interpolated): string {
  if (value instanceof Html) {
    return value.value;
  }
  if (Array.isArray(value)) {
    return value.map(render).join('');
  }
  if (value === null || value === undefined || value === false) {
    return '';
  }
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(out);
}
