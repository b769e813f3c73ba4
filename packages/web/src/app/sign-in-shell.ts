/*
 * The sign-in page's first screen as plain HTML and CSS, written into a copy of index.html at
 * build time (login.html). The server sends that copy for /login when the request carries no
 * session, so a signed-out visitor sees the page before the app's code has even arrived (on a
 * phone that code takes seconds to download and run). The app waits until it can render the same
 * page and then replaces this outline in one commit: the same top bar, card and heading, now live
 * (the field's line under it is the room its helper text takes).
 *
 * The outline is a picture, not the page: aria-hidden and without form controls, so nothing can
 * be typed into it or reached by a screen reader before the real form is there. Its measures copy
 * the theme's (AppBar, Toolbar, Paper outlined, Typography h4 and h6, a large contained Button).
 */

/** The id of the outline's root; the app looks for it to know the page came with it. */
export const SIGN_IN_SHELL_ID = 'sign-in-shell';

export interface SignInShellTexts {
  appName: string;
  loginLink: string;
  title: string;
  email: string;
  next: string;
  primaryColor: string;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The <style> for the outline (goes into <head>). */
export function signInShellStyle(primaryColor: string): string {
  const font = '"Roboto","Helvetica","Arial",sans-serif';
  return `<style>
html{-webkit-font-smoothing:antialiased;box-sizing:border-box;-webkit-text-size-adjust:100%}
*,*::before,*::after{box-sizing:inherit}
body{margin:0;color:rgba(0,0,0,.87);font-family:${font};font-weight:400;font-size:1rem;line-height:1.5;letter-spacing:.00938em;background-color:#fff}
#${SIGN_IN_SHELL_ID}{display:flex;flex-direction:column;min-height:100vh}
#${SIGN_IN_SHELL_ID} .s-bar{background:${primaryColor};color:#fff;box-shadow:0 2px 4px -1px rgba(0,0,0,.2),0 4px 5px 0 rgba(0,0,0,.14),0 1px 10px 0 rgba(0,0,0,.12)}
#${SIGN_IN_SHELL_ID} .s-toolbar{display:flex;align-items:center;gap:8px;min-height:56px;padding:0 16px}
@media (min-width:0) and (orientation:landscape){#${SIGN_IN_SHELL_ID} .s-toolbar{min-height:48px}}
@media (min-width:600px){#${SIGN_IN_SHELL_ID} .s-toolbar{min-height:64px;padding:0 24px;gap:16px}}
#${SIGN_IN_SHELL_ID} .s-name{font-size:1.25rem;font-weight:500;line-height:1.6;letter-spacing:.0075em;white-space:nowrap;flex:1}
#${SIGN_IN_SHELL_ID} .s-link{font-size:.875rem;font-weight:500;line-height:1.75;letter-spacing:.02857em;text-transform:uppercase;padding:6px 8px;min-width:64px;text-align:center}
#${SIGN_IN_SHELL_ID} .s-main{width:100%;max-width:1200px;margin:0 auto;padding:24px 16px}
#${SIGN_IN_SHELL_ID} .s-center{display:flex;justify-content:center;padding-top:16px}
@media (min-width:600px){#${SIGN_IN_SHELL_ID} .s-main{padding:24px}#${SIGN_IN_SHELL_ID} .s-center{padding-top:48px}}
#${SIGN_IN_SHELL_ID} .s-card{width:100%;max-width:420px;padding:32px;border:1px solid rgba(0,0,0,.12);border-radius:8px;background:#fff}
#${SIGN_IN_SHELL_ID} .s-title{margin:0 0 .35em;font-size:2.125rem;font-weight:400;line-height:1.235;letter-spacing:.00735em}
#${SIGN_IN_SHELL_ID} .s-form{display:flex;flex-direction:column;gap:16px}
#${SIGN_IN_SHELL_ID} .s-field{height:56px;margin-bottom:22.92px;border:1px solid rgba(0,0,0,.23);border-radius:8px;padding:16.5px 14px;color:rgba(0,0,0,.6);line-height:1.4375em}
#${SIGN_IN_SHELL_ID} .s-button{padding:8px 22px;border-radius:8px;background:${primaryColor};color:#fff;text-align:center;font-size:.9375rem;font-weight:500;line-height:1.75;letter-spacing:.02857em;text-transform:uppercase;box-shadow:0 3px 1px -2px rgba(0,0,0,.2),0 2px 2px 0 rgba(0,0,0,.14),0 1px 5px 0 rgba(0,0,0,.12)}
</style>`;
}

/** The outline itself (goes into the app's root element, which React empties when it renders). */
export function signInShellBody(t: SignInShellTexts): string {
  return (
    `<div id="${SIGN_IN_SHELL_ID}" aria-hidden="true">` +
    `<div class="s-bar"><div class="s-toolbar"><div class="s-name">${escape(t.appName)}</div>` +
    `<div class="s-link">${escape(t.loginLink)}</div></div></div>` +
    `<div class="s-main"><div class="s-center"><div class="s-card">` +
    `<div class="s-title">${escape(t.title)}</div>` +
    `<div class="s-form"><div class="s-field">${escape(t.email)}</div><div class="s-button">${escape(t.next)}</div></div>` +
    `</div></div></div></div>`
  );
}
