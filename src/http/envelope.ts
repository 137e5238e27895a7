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
