// The operator token lives in sessionStorage: it survives reloads of this tab and is gone when the tab closes.
const KEY = 'integrator-api.admin.token';

export function storedToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}
