import { SESSION_EXPIRED_FLAG_KEY } from '@rpm/contracts';

/*
 * The expired-session flag of spec section 3. It lives in sessionStorage so that it survives a
 * reload of the tab (the Session Ended modal comes back) but not the tab itself.
 */
export function isSessionExpiredFlagSet(): boolean {
  try {
    return sessionStorage.getItem(SESSION_EXPIRED_FLAG_KEY) === '1';
  } catch {
    return false;
  }
}

export function setSessionExpiredFlag(): void {
  try {
    sessionStorage.setItem(SESSION_EXPIRED_FLAG_KEY, '1');
  } catch {
    /* storage blocked: the modal still shows until reload */
  }
}

export function clearSessionExpiredFlag(): void {
  try {
    sessionStorage.removeItem(SESSION_EXPIRED_FLAG_KEY);
  } catch {
    /* nothing to clear */
  }
}
