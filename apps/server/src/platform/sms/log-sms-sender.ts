import type { SmsMessage, SmsSender } from './sms-sender.js';

export interface SmsOutboxEntry {
  phone: string;
  templateKey: string;
  params: Record<string, string>;
  sentAt: string;
}

export interface LogSmsSenderOptions {
  log: { info(obj: object, msg: string): void };
  outboxSize?: number;
}

const DEFAULT_OUTBOX_SIZE = 200;

/** Development sender: nothing leaves the process; the message is logged and kept in a small in-memory outbox. */
export class LogSmsSender implements SmsSender {
  readonly name = 'log';
  readonly exposesCodes = true;
  private readonly log: LogSmsSenderOptions['log'];
  private readonly outboxSize: number;
  private readonly entries: SmsOutboxEntry[] = [];

  constructor(options: LogSmsSenderOptions) {
    this.log = options.log;
    const size = options.outboxSize ?? DEFAULT_OUTBOX_SIZE;
    this.outboxSize = Number.isInteger(size) && size > 0 ? size : DEFAULT_OUTBOX_SIZE;
  }

  /** Every message: nothing leaves the process, so no template is needed. */
  hasTemplate(): boolean {
    return true;
  }

  async send(message: SmsMessage): Promise<void> {
    const { phone, templateKey } = message;
    const params = { ...message.params };
    this.log.info({ sms: { phone, templateKey, params } }, 'development SMS (not sent to a phone)');
    this.entries.push({ phone, templateKey, params, sentAt: new Date().toISOString() });
    // Bounded so a long-running dev server (or a script hammering the endpoint) cannot grow memory without limit.
    if (this.entries.length > this.outboxSize) this.entries.splice(0, this.entries.length - this.outboxSize);
  }

  /** Newest first; copies, so callers cannot alter the stored history. */
  outbox(phone?: string): SmsOutboxEntry[] {
    const picked = phone === undefined ? this.entries : this.entries.filter((entry) => entry.phone === phone);
    return picked
      .slice()
      .reverse()
      .map((entry) => ({ ...entry, params: { ...entry.params } }));
  }
}
