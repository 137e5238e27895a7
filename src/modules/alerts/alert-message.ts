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
}

export type NewAlertMessage = Omit<
  AlertMessage,
  'attempts' | 'nextAttemptAt' | 'lastError' | 'sentAt' | 'status'
> & { readonly status: 'pending' | 'suppressed'; readonly lastError?: string };
