/**
 * Runs once when the Next.js server starts. Started by the launcher
 * (scripts/start.ts), the server exits as soon as the launcher is gone, even
 * when it was killed outright: it never lingers as an orphan holding the port.
 */
export async function register() {
  const launcher = Number(process.env.HOPSCOPE_LAUNCHER_PID);
  if (process.env.NEXT_RUNTIME !== 'nodejs' || !launcher) return;
  (await import('./lib/launcher-watch')).exitWithLauncher(launcher);
}
