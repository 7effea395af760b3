import pkcs11js from 'pkcs11js';
import { CustodyUnavailableError, reasonOf } from './errors.js';

type Handle = pkcs11js.Handle;

/**
 * Logged-in sessions on one token, one operation at a time each: PKCS#11 keeps one active operation per session
 * (C_SignInit then C_Sign), so concurrent signatures each borrow their own session. Up to `size` are opened, on
 * demand; a caller past that waits for one to come back. A session on which an operation failed is closed, not
 * returned (it may be the token that went away), with the idle ones, and the next borrower opens a fresh one, which
 * logs in again.
 */
export class SessionPool {
  private readonly idle: Handle[] = [];
  private readonly waiting: Array<{ resolve: (session: Handle) => void; reject: (err: Error) => void }> = [];
  private open = 0;
  private closed = false;

  constructor(
    private readonly lib: pkcs11js.PKCS11,
    private readonly slot: Handle,
    private readonly pin: () => string,
    private readonly size: number,
  ) {}

  /** Runs `work` on a session of its own; a failure in it drops the session. */
  async use<T>(operation: string, work: (session: Handle) => Promise<T> | T): Promise<T> {
    const session = await this.acquire(operation);
    let healthy = false;
    try {
      const result = await work(session);
      healthy = true;
      return result;
    } finally {
      this.release(session, healthy);
    }
  }

  /** Opens and logs in one session now, so a wrong PIN or a missing token is found at start, not at the first signature. */
  async warmUp(): Promise<void> {
    await this.use('open a session', () => undefined);
  }

  close(): void {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new CustodyUnavailableError('sign', 'the token was closed'));
    for (const session of this.idle.splice(0)) this.closeSession(session);
  }

  private acquire(operation: string): Promise<Handle> {
    if (this.closed) return Promise.reject(new CustodyUnavailableError(operation, 'the token was closed'));
    const session = this.idle.pop();
    if (session) return Promise.resolve(session);
    if (this.open < this.size) {
      this.open++;
      try {
        return Promise.resolve(this.openSession());
      } catch (err) {
        this.open--;
        return Promise.reject(err as Error);
      }
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private release(session: Handle, healthy: boolean): void {
    if (!healthy || this.closed) {
      this.closeSession(session);
      this.open--;
      // What broke one session (sessions closed, the token gone, the login lost) most likely broke the idle ones too:
      // they are closed rather than each failing a request of its own.
      for (const idle of this.idle.splice(0)) {
        this.closeSession(idle);
        this.open--;
      }
      // A waiter gets a new session of its own (opening may fail, which is then its error).
      const waiter = this.waiting.shift();
      if (waiter) {
        this.open++;
        try {
          waiter.resolve(this.openSession());
        } catch (err) {
          this.open--;
          waiter.reject(err as Error);
        }
      }
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(session);
    else this.idle.push(session);
  }

  private openSession(): Handle {
    let session: Handle;
    try {
      session = this.lib.C_OpenSession(this.slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
    } catch (err) {
      throw new CustodyUnavailableError('open a session', reasonOf(err));
    }
    try {
      // The login is the application's, shared by its sessions: a second one answers that it is done already.
      this.lib.C_Login(session, pkcs11js.CKU_USER, this.pin());
    } catch (err) {
      const reason = reasonOf(err);
      if (reason !== 'CKR_USER_ALREADY_LOGGED_IN') {
        this.closeSession(session);
        throw new CustodyUnavailableError('log in', reason);
      }
    }
    return session;
  }

  private closeSession(session: Handle): void {
    try {
      this.lib.C_CloseSession(session);
    } catch {
      // Already closed (by C_CloseAllSessions, or with the token): nothing left to release.
    }
  }
}
