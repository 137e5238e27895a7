export type AlertChannel = 'email' | 'sms';
export type AlertStatus = 'pending' | 'sent' | 'failed' | 'suppressed';

/** One message to one holder on one channel (alert_messages). */
export interface AlertMessage {
  /** Stable: the SMTP Message-ID and the SMS provider's de-duplication key. */
  readonly id: string;
  readonly accountId: string;
  readonly accountNumber: string;
  readonly clientId: string;
  readonly channel: AlertChannel;
  readonly destination: string;
  readonly status: AlertStatus;
  /** Email only. */
  readonly subject: string | null;
  readonly textBody: string;
  /** Email only. */
  readonly htmlBody: string | null;
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly sentAt: Date | null;
  /**
   * A monthly statement's message: the month (`2026-03-01`) it is the statement of; its email
   * carries the month's PDF statement, made when it is sent (docs/statements.md, "Monthly
   * statements"). Null for an alert.
   */
  readonly statementMonth: string | null;
}

export type NewAlertMessage = Omit<
  AlertMessage,
  'attempts' | 'nextAttemptAt' | 'lastError' | 'sentAt' | 'status' | 'statementMonth'
> & {
  readonly status: 'pending' | 'suppressed';
  readonly lastError?: string;
  readonly statementMonth?: string | null;
};
