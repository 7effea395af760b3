import type { Api, Deps } from '../../types.js';

/** OTP authentication (docs/otp.md): init, verify, send-transaction-otp, the sandbox outbox. */
export function otpRoutes(_api: Api, _deps: Deps): void {}
