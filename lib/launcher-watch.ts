/** Checks twice a second that the launcher (scripts/start.ts) is alive; the server exits as soon as it is not. */
export function exitWithLauncher(launcherPid: number) {
  setInterval(() => {
    try {
      process.kill(launcherPid, 0);
    } catch {
      console.error('[hopscope] the launcher is gone; the server stops');
      process.exit(0);
    }
  }, 500).unref();
}
