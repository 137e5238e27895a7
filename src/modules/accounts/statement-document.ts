import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import { lagosDay } from '../../shared/lagos-time.ts';
import type { StatementExport } from './account-service.ts';
import { statementCsv } from './statement-csv.ts';
import { type StatementBank, statementPdf } from './statement-pdf.ts';

export type StatementFormat = 'json' | 'pdf' | 'csv';

const MEDIA_TYPES: Readonly<Record<string, StatementFormat>> = {
  'application/json': 'json',
  'application/pdf': 'pdf',
  'text/csv': 'csv',
};

/**
 * What the caller asked for: `format` when given; else the media type the Accept header
 * prefers among application/json, application/pdf and text/csv (by q, then by order); else,
 * with no header, a wildcard or anything else, the JSON page existing clients read.
 */
export function statementFormat(
  format: StatementFormat | undefined,
  accept: string | undefined,
): StatementFormat {
  if (format !== undefined) {
    return format;
  }
  const offers = (accept ?? '')
    .split(',')
    .map((part, order) => {
      const [type = '', ...parameters] = part.split(';').map((piece) => piece.trim());
      const q = parameters.find((parameter) => /^q=/i.test(parameter));
      return { type: type.toLowerCase(), q: q === undefined ? 1 : Number(q.slice(2)), order };
    })
    .filter((offer) => MEDIA_TYPES[offer.type] !== undefined && offer.q > 0)
    .sort((left, right) => right.q - left.q || left.order - right.order);
  return MEDIA_TYPES[offers[0]?.type ?? ''] ?? 'json';
}

/** A document holds every entry of its range: a type filter would break its running balance. */
export function refuseTypeFilter(type: string | undefined): void {
  if (type !== undefined) {
    throw new AppError(
      'VALIDATION_ERROR',
      'type filters a page; a PDF or CSV statement holds every entry',
      {
        details: [{ field: 'type', message: 'is not taken with format pdf or csv' }],
      },
    );
  }
}

/**
 * Sends the statement as a streamed attachment: the stream's reader sets the pace, so memory
 * holds a batch of entries whatever the range. Not cached anywhere (a customer's money).
 */
export function sendStatementDocument(
  reply: FastifyReply,
  statement: StatementExport,
  format: 'pdf' | 'csv',
  bank: StatementBank,
) {
  const name = statementFileName(statement, format);
  void reply
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store');
  if (format === 'pdf') {
    return reply.type('application/pdf').send(statementPdf(statement, bank));
  }
  return reply.type('text/csv; charset=utf-8; header=present').send(statementCsv(statement));
}

/** `statement-1000000013-2026-03-01-2026-03-31.pdf`: whose, and which days (Lagos). */
function statementFileName(statement: StatementExport, format: 'pdf' | 'csv'): string {
  return `statement-${statement.account.accountNumber}-${lagosDay(statement.from)}-${lagosDay(statement.to)}.${format}`;
}

/**
 * The PDF statement as a file to attach (a monthly statement's email): its name and its bytes as
 * a stream the reader paces, the same document `GET /accounts/:id/statement?format=pdf` answers.
 */
export function statementPdfFile(
  statement: StatementExport,
  bank: StatementBank,
): { readonly filename: string; readonly content: Readable } {
  return { filename: statementFileName(statement, 'pdf'), content: statementPdf(statement, bank) };
}
