/**
 * Keeps the API key out of everything the model layer hands back: servers and
 * proxies sometimes echo the Authorization header in error bodies, and error
 * messages end up in the trace, the UI and logs.
 */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join('[redacted]');
}
