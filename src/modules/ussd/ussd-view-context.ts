/** What rendering a reference needs besides the reference: our code, and now (for Expired). */
export interface UssdViewContext {
  readonly institutionCode: string;
  readonly now: Date;
}
