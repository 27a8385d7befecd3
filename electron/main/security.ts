import { session, type IpcMainInvokeEvent, type WebContents } from 'electron';

/** Only the renderer is allowed to run code; it never talks to the network (the engine talks to Ollama). */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Denies every permission, navigation and new window; sets the CSP header on every response. */
export function hardenSession(): void {
  session.defaultSession.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}

export function hardenWebContents(contents: WebContents, allowedUrl: string): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (url !== allowedUrl) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** IPC is answered only for our own main frame, loaded from our own URL. */
export function isTrustedSender(event: IpcMainInvokeEvent, allowedUrl: string): boolean {
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame) return false;
  return frame.url === allowedUrl || frame.url.startsWith(`${allowedUrl}#`);
}
