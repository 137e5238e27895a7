/** Success bodies as the published API sends them: statusCode mirrors HTTP, never an `error`. */
export interface Envelope<T> {
  statusCode: number;
  message: string;
  data: T;
}

export interface Pagination {
  total: number;
  pages: number;
  /** Echoed as strings, as the published pagination example shows. */
  page: string;
  limit: string;
}

export interface PagedEnvelope<T> extends Envelope<T[]> {
  pagination: Pagination;
}

export function ok<T>(message: string, data: T, statusCode = 200): Envelope<T> {
  return { statusCode, message, data };
}

export interface NibssEnvelope<T> extends Envelope<T> {
  responseCode: string | null;
  responseMessage: string | null;
}

/** A success body whose data carries a NIBSS result, repeated at the top level for clients. */
export function okNibss<T extends { responseCode: string | null; responseMessage: string | null }>(
  message: string,
  data: T,
): NibssEnvelope<T> {
  return {
    statusCode: 200,
    message,
    responseCode: data.responseCode,
    responseMessage: data.responseMessage,
    data,
  };
}

export function paged<T>(
  message: string,
  data: T[],
  page: { page: number; limit: number; total: number },
): PagedEnvelope<T> {
  return {
    statusCode: 200,
    message,
    data,
    pagination: {
      total: page.total,
      pages: Math.ceil(page.total / page.limit),
      page: String(page.page),
      limit: String(page.limit),
    },
  };
}
